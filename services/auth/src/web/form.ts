import { bodyTextGuard } from '@pfs/http';
import express, { RequestHandler } from 'express';
import { isValidCsrfToken } from './csrf';
import { errorPage } from './pages';

const parseUrlEncoded = express.urlencoded({ extended: false, limit: '16kb' });

/**
 * The body of every POST: URL-encoded, flat (a repeated field becomes an array), small, and free of
 * U+0000 (a 400 naming the field, before any value reaches Postgres).
 */
export const parseForm: RequestHandler = (req, res, next) =>
  parseUrlEncoded(req, res, (error?: unknown) => (error ? next(error) : bodyTextGuard(req, res, next)));

/** Refuses a page form without the CSRF token of its cookie (a stale page, or another site posting). */
const requireCsrfToken: RequestHandler = (req, res, next) => {
  if (isValidCsrfToken(req)) return next();
  res.status(403).type('html').send(errorPage('Request expired', 'Reload the page and try again.'));
};

/** What every page form's POST goes through before its handler. */
export const pageForm: RequestHandler[] = [parseForm, requireCsrfToken];
