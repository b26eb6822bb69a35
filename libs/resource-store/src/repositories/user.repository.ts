import { DataSource, EntityManager } from 'typeorm';
import { UserEntity } from '../entities/user.entity';

/** A user's profile as plain data; no TypeORM object leaves the repository. */
export interface User {
  id: string;
  email: string;
  firstName: string | null;
  lastName: string | null;
  currency: string;
  startDay: number;
  locale: string | null;
  timezone: string | null;
  country: string | null;
  extra: Record<string, unknown> | null;
  createdAt: Date;
  modifiedAt: Date;
}

export interface NewUser {
  email: string;
  firstName?: string | null;
  lastName?: string | null;
  currency?: string;
}

const toUser = (entity: UserEntity): User => ({ ...entity, id: String(entity.id) });

export class UserRepository {
  constructor(private readonly source: DataSource | EntityManager) {}

  async findById(id: string): Promise<User | undefined> {
    if (!/^\d{1,18}$/.test(id)) return undefined;
    const entity = await this.source.getRepository(UserEntity).findOneBy({ id });
    return entity ? toUser(entity) : undefined;
  }

  async findByEmail(email: string): Promise<User | undefined> {
    const entity = await this.source
      .getRepository(UserEntity)
      .createQueryBuilder('user')
      .where('lower(user.email) = lower(:email)', { email })
      .getOne();
    return entity ? toUser(entity) : undefined;
  }

  async create(input: NewUser): Promise<User> {
    const repository = this.source.getRepository(UserEntity);
    const result = await repository.insert({
      email: input.email,
      firstName: input.firstName ?? null,
      lastName: input.lastName ?? null,
      currency: input.currency ?? 'EUR',
    });
    const id = String(result.identifiers[0].id);
    const created = await repository.findOneByOrFail({ id });
    return toUser(created);
  }
}
