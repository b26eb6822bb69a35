import { inputError, notFound } from '@pfs/errors';
import { amountToJson, type Currency, findCurrency, listCurrencies, type RateSource } from '@pfs/money';
import { parseListParam } from '@pfs/resource-api';
import type { Request } from 'express';
import type { ApiDependencies } from '../../dependencies';
import type { ApiHandler, DeclaredOperation } from '../../http/api-operation';
import { DATE_RULE, isValidDate } from '../../http/date-rule';
import { currencyProperties } from './currencies.schema';
import { withRates } from '../../http/rates-ready';

const TYPES = ['fiat', 'commodity', 'crypto', 'deprecated'];

function presentCurrency(currency: Currency, rates: RateSource, date?: string): Record<string, unknown> {
  const found = date ? rates.findRate(currency.code, date) : undefined;
  return {
    code: currency.code,
    name: currency.name,
    precision: currency.precision,
    type: currency.type,
    ...(found ? { rate: { date: found.date, rate: amountToJson(found.rate) } } : {}),
  };
}

function readDate(req: Request): string | undefined {
  const date = req.query.date;
  if (date === undefined) return undefined;
  if (!isValidDate(date)) throw inputError([{ field: 'date', error: DATE_RULE }]);
  return date;
}

export function currenciesHandlers(deps: ApiDependencies) {
  const api = deps.resourceApi;

  const list: ApiHandler = async (_ctx, req, res) => {
    const query = req.query as Record<string, unknown>;
    const codes = parseListParam(
      query,
      'currencies',
      (code) => /^[A-Z]{3}$/.test(code),
      'must be comma-separated currency codes',
    );
    const types = parseListParam(
      query,
      'types',
      (type) => TYPES.includes(type),
      `must be comma-separated of ${TYPES.join(', ')}`,
    );
    const date = readDate(req);
    const list = listCurrencies().filter(
      (currency) => (!codes || codes.includes(currency.code)) && (!types || types.includes(currency.type)),
    );
    api.respond.sendObject(
      req,
      res,
      'currencies',
      list.map((currency) => presentCurrency(currency, deps.rates, date)),
    );
  };

  const get: ApiHandler = async (_ctx, req, res) => {
    const currency = findCurrency(String(req.params.code));
    if (!currency) throw notFound('Currency', String(req.params.code));
    api.respond.sendObject(req, res, 'currencies', presentCurrency(currency, deps.rates, readDate(req)));
  };

  // Presenting a rate needs the rate table in memory.
  return { list: withRates(deps.rates, list), get: withRates(deps.rates, get) };
}

export type CurrenciesHandlers = ReturnType<typeof currenciesHandlers>;

/** No scope: currencies are readable with any valid token. */
export const currenciesOperations: Array<DeclaredOperation<CurrenciesHandlers>> = [
  {
    resource: 'currencies',
    rel: 'list',
    method: 'GET',
    href: '/currencies',
    title: 'List currencies; with date, each carries its EUR reference rate of that day',
    hrefSchema: {
      type: 'object',
      properties: {
        currencies: { type: 'string', description: 'Comma-separated codes.' },
        types: { type: 'string', description: 'Comma-separated types.' },
        date: { type: 'string', format: 'date' },
      },
    },
    // The whole list in one answer (no pages): an array, without the list headers.
    target: { type: 'array', items: { type: 'object', properties: currencyProperties } },
    handler: 'list',
  },
  {
    resource: 'currencies',
    rel: 'self',
    method: 'GET',
    href: '/currencies/{code}',
    title: 'One currency (date optional)',
    target: 'object',
    handler: 'get',
  },
];
