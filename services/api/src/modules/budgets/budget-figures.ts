import { inputError } from '@pfs/errors';
import { convertAmount, Decimal, type RateSource, roundToCurrency } from '@pfs/money';
import { type Budget, type BudgetWindow, sumBudgetWindows, type UserRead } from '@pfs/resource-store';
import { BudgetCalendar, type Iteration } from './budget-iterations';

/** How many earlier iterations `history_amount_median` looks back over. */
export const HISTORY_ITERATIONS = 6;

/** One budget shown at one of its iterations. */
export interface BudgetAtIteration {
  budget: Budget;
  iteration: Iteration;
}

/** What a budget's iteration adds up to, in the budget's currency (exact, rounded to it). */
export interface BudgetFigures {
  limit: Decimal;
  /** Matching expenses of the iteration, as a positive amount. */
  amount: Decimal;
  /** The part of `amount` dated after today. */
  planned: Decimal;
  /** limit − planned: what the limit leaves for spending that is not yet planned. */
  limitPlanned: Decimal;
  /** Carried over from the previous iteration (rollover budgets), or the amount the client set. */
  rolloverAmount?: Decimal;
  /** Median `amount` of up to HISTORY_ITERATIONS earlier iterations; absent for the first. */
  historyAmountMedian?: Decimal;
}

interface WindowSums {
  expenses: Decimal;
  planned: Decimal;
  incomes: Decimal;
}

export interface FigureDeps {
  rates: RateSource;
}

function median(values: Decimal[]): Decimal | undefined {
  if (!values.length) return undefined;
  const sorted = [...values].sort((a, b) => a.comparedTo(b));
  const middle = sorted.length >> 1;
  return sorted.length % 2 ? sorted[middle] : sorted[middle - 1].plus(sorted[middle]).dividedBy(2);
}

/**
 * Figures for many budget iterations with ONE query (sumBudgetWindows): for each shown iteration k, the
 * windows k-6…k (and -1, the period before the first) are summed, because delta limits, rollover and the
 * history median need the iterations before it. Totals in the budget currency are exact as they are;
 * daily totals in another currency are converted with the ECB rate of their day and rounded half-even (the
 * /entries/sums rule).
 */
export async function computeBudgetFigures(
  deps: FigureDeps,
  read: UserRead,
  items: BudgetAtIteration[],
  options: { startDay: number; today: string },
): Promise<BudgetFigures[]> {
  const windows: BudgetWindow[] = [];
  const itemOfWindow: number[] = [];
  const windowKeys = items.map(({ budget, iteration }, position) => {
    const calendar = new BudgetCalendar(budget.recurrence, options.startDay);
    const keys = new Map<number, number>();
    for (let index = Math.max(-1, iteration.index - HISTORY_ITERATIONS); index <= iteration.index; index++) {
      const window = index === iteration.index ? iteration : calendar.at(index);
      if (!window) continue;
      keys.set(index, windows.length);
      itemOfWindow.push(position);
      windows.push({ key: windows.length, budgetId: budget.id, from: window.from, to: window.to });
    }
    return keys;
  });
  const sums = windows.map<WindowSums>(() => ({
    expenses: new Decimal(0),
    planned: new Decimal(0),
    incomes: new Decimal(0),
  }));
  for (const total of await sumBudgetWindows(read, windows, options.today)) {
    const currency = items[itemOfWindow[total.key]].budget.currency.code;
    const converted =
      total.date === null
        ? new Decimal(total.total)
        : convertAmount(deps.rates, {
            amount: total.total,
            from: total.currency,
            to: currency,
            date: total.date,
          });
    if (!converted) {
      throw inputError([
        { field: 'currency', error: `no stored rate from ${total.currency} to ${currency} on ${total.date}` },
      ]);
    }
    const sum = sums[total.key];
    if (total.kind === 'income') sum.incomes = sum.incomes.plus(converted);
    else {
      sum.expenses = sum.expenses.minus(converted);
      if (total.planned) sum.planned = sum.planned.minus(converted);
    }
  }
  return items.map((item, position) => figuresOf(item, windowKeys[position], sums));
}

function figuresOf(item: BudgetAtIteration, keys: Map<number, number>, sums: WindowSums[]): BudgetFigures {
  const { budget, iteration } = item;
  const code = budget.currency.code;
  const window = (index: number) => (keys.has(index) ? sums[keys.get(index)!] : undefined);
  const limitOf = (index: number): Decimal => {
    if (budget.type === 'regular') return new Decimal(budget.limit ?? 0);
    if (budget.type === 'percent') {
      const incomes = window(index)?.incomes ?? new Decimal(0);
      return roundToCurrency(incomes.times(budget.percent ?? 0).dividedBy(100), code);
    }
    const previous = window(index - 1)?.expenses ?? new Decimal(0);
    return Decimal.max(0, previous.plus(budget.delta ?? 0));
  };
  const current = window(iteration.index)!;
  const limit = limitOf(iteration.index);
  let rolloverAmount: Decimal | undefined;
  if (budget.rolloverAmount !== null) rolloverAmount = new Decimal(budget.rolloverAmount);
  else if (budget.rollover) {
    const previous = iteration.index > 0 ? window(iteration.index - 1) : undefined;
    rolloverAmount = previous ? limitOf(iteration.index - 1).minus(previous.expenses) : new Decimal(0);
  }
  const history = [...keys.keys()]
    .filter((index) => index >= 0 && index < iteration.index)
    .map((index) => window(index)!.expenses);
  const historyMedian = median(history);
  return {
    limit,
    amount: current.expenses,
    planned: current.planned,
    limitPlanned: limit.minus(current.planned),
    rolloverAmount,
    historyAmountMedian: historyMedian && roundToCurrency(historyMedian, code),
  };
}
