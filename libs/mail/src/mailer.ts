import nodemailer from 'nodemailer';

/** One plain-text message; the sender is the mailer's. */
export interface Mail {
  to: string;
  subject: string;
  text: string;
}

/** Sends the services' mail: auth's verification and reset links, the worker's export links. */
export interface Mailer {
  send(mail: Mail): Promise<void>;
  close(): void;
}

/**
 * Mail through the SMTP server of `SMTP_URL` with nodemailer (pooling, TLS and the SMTP dialogue are the
 * library's). No URL, no mailer: the caller then sends no mail (auth neither verifies addresses nor resets
 * passwords by mail; the worker sends no export link).
 */
export function createMailer(smtpUrl: string | undefined, from: string): Mailer | undefined {
  if (!smtpUrl) return undefined;
  const transport = nodemailer.createTransport(smtpUrl);
  return {
    async send(mail) {
      await transport.sendMail({ from, ...mail });
    },
    close() {
      transport.close();
    },
  };
}
