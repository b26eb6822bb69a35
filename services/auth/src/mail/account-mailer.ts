import nodemailer from 'nodemailer';

export interface AccountMail {
  to: string;
  subject: string;
  text: string;
}

/** Sends the account's own mail (verification and reset links). */
export interface AccountMailer {
  send(mail: AccountMail): Promise<void>;
  close(): void;
}

/**
 * Mail through the SMTP server of `SMTP_URL` with nodemailer (the worker sends export links the same way);
 * no URL, no mailer: the service then neither verifies addresses nor resets passwords by mail.
 */
export function createAccountMailer(smtpUrl: string | undefined, from: string): AccountMailer | undefined {
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
