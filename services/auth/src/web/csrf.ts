import { generateToken } from '@pfs/contracts';
import { timingSafeEqual } from 'node:crypto';
import type { Request, Response } from 'express';
import { CSRF_COOKIE, readCookie, setCookie } from './cookies';

/**
 * Double-submit CSRF protection: a random value in an HttpOnly SameSite cookie and the same value in each
 * form. A cross-site page can make the browser send the cookie but cannot read it to fill the field.
 */
export function issueCsrfToken(req: Request, res: Response, secure: boolean): string {
  const existing = readCookie(req, CSRF_COOKIE);
  if (existing && existing.length >= 32) return existing;
  const token = generateToken();
  setCookie(res, CSRF_COOKIE, token, { secure });
  return token;
}

export function isValidCsrfToken(req: Request): boolean {
  const cookie = readCookie(req, CSRF_COOKIE);
  const field = typeof req.body?.csrf_token === 'string' ? req.body.csrf_token : undefined;
  if (!cookie || !field) return false;
  const a = Buffer.from(cookie);
  const b = Buffer.from(field);
  return a.length === b.length && timingSafeEqual(a, b);
}
