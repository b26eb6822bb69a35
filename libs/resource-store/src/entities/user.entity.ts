import { Column, Entity, PrimaryGeneratedColumn } from 'typeorm';

@Entity({ name: 'users' })
export class UserEntity {
  @PrimaryGeneratedColumn({ type: 'bigint' })
  id!: string;

  @Column({ type: 'text' })
  email!: string;

  @Column({ name: 'first_name', type: 'text', nullable: true })
  firstName!: string | null;

  @Column({ name: 'last_name', type: 'text', nullable: true })
  lastName!: string | null;

  @Column({ type: 'char', length: 3 })
  currency!: string;

  @Column({ name: 'start_day', type: 'smallint' })
  startDay!: number;

  @Column({ type: 'text', nullable: true })
  locale!: string | null;

  @Column({ type: 'text', nullable: true })
  timezone!: string | null;

  @Column({ type: 'char', length: 2, nullable: true })
  country!: string | null;

  @Column({ type: 'jsonb', nullable: true })
  extra!: Record<string, unknown> | null;

  @Column({ name: 'created_at', type: 'timestamptz' })
  createdAt!: Date;

  @Column({ name: 'modified_at', type: 'timestamptz' })
  modifiedAt!: Date;
}
