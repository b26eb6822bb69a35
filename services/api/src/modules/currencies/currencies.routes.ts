import { AppError, inputError, notFound } from '@pfs/errors';
import { amountToJson, type Currency, findCurrency, listCurrencies, type RateSource } from '@pfs/money';
import { parseListParam } from '@pfs/resource-api';
import { type NextFunction, type Request, type Response, Router } from 'express';
import type { ApiDependencies } from '../../dependencies';
import { DATE_RULE, isValidDate } from '../../http/date-rule';
import { ratesReady } from '../../http/rates-ready';
import { optionalRequestContext } from '../../http/request-context';

const TYPES = ['fiat', 'commodity', 'crypto', 'deprecated'];

/** Currencies are readable with any valid token, whatever its scopes (the authenticate step already ran). */
function requireAnyToken(req: Request, _res: Response, next: NextFunction): void {
  if (!optionalRequestContext(req))
    throw new AppError('UNAUTHENTICATED', { description: 'Authentication is required.' });
  next();
}

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

export function currenciesRoutes(deps: ApiDependencies): Router {
  const router = Router();
  const api = deps.resourceApi;
  router.use('/currencies', ratesReady(deps.rates));

  router.get('/currencies', requireAnyToken, async (req, res) => {
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
  });

  router.get('/currencies/:code', requireAnyToken, async (req, res) => {
    const currency = findCurrency(String(req.params.code));
    if (!currency) throw notFound('Currency', String(req.params.code));
    api.respond.sendObject(req, res, 'currencies', presentCurrency(currency, deps.rates, readDate(req)));
  });

  return router;
}
