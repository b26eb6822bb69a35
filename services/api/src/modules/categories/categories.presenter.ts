import type { Category } from '@pfs/resource-store';
import type { LabelCounts } from '../labels/named-label';
import { presentLabel } from '../labels/named-label.presenter';

export const presentCategory = (category: Category, counts?: LabelCounts) => presentLabel(category, counts);
