import express, { RequestHandler } from 'express';
import { isValidCsrfToken } from './csrf';
import { errorPage } from './pages';

/** The body of every POST: URL-encoded, flat (a repeated field becomes an array), small. */
export const parseForm: RequestHandler = express.urlencoded({ extended: false, limit: '16kb' });

/** Refuses a page form without the CSRF token of its cookie (a stale page, or another site posting). */
const requireCsrfToken: RequestHandler = (req, res, next) => {
  if (isValidCsrfToken(req)) return next();
  res.status(403).type('html').send(errorPage('Request expired', 'Reload the page and try again.'));
};

/** What every page form's POST goes through before its handler. */
export const pageForm: RequestHandler[] = [parseForm, requireCsrfToken];
