import { parse, serialize, SerializeOptions } from 'cookie';
import type { Request, Response } from 'express';

export const SESSION_COOKIE = 'pfs_session';
export const CSRF_COOKIE = 'pfs_csrf';
/** Password accepted, second factor pending. */
export const PENDING_SIGNIN_COOKIE = 'pfs_pending';

export function readCookie(req: Request, name: string): string | undefined {
  const header = req.headers.cookie;
  return header ? parse(header)[name] : undefined;
}

/** HttpOnly and SameSite=Lax always; Secure whenever the service is reached over HTTPS. */
export function setCookie(
  res: Response,
  name: string,
  value: string,
  options: { secure: boolean; maxAgeSeconds?: number },
) {
  const cookieOptions: SerializeOptions = {
    httpOnly: true,
    sameSite: 'lax',
    secure: options.secure,
    path: '/',
    maxAge: options.maxAgeSeconds,
  };
  res.append('Set-Cookie', serialize(name, value, cookieOptions));
}

export function clearCookie(res: Response, name: string, secure: boolean) {
  res.append(
    'Set-Cookie',
    serialize(name, '', { httpOnly: true, sameSite: 'lax', secure, path: '/', maxAge: 0 }),
  );
}
