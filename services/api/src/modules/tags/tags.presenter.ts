import type { Tag } from '@pfs/resource-store';
import type { LabelCounts } from '../labels/named-label';
import { presentLabel } from '../labels/named-label.presenter';

export const presentTag = (tag: Tag, counts?: LabelCounts) =>
  presentLabel(tag, counts, { category: tag.categoryId });
