import nodemailer from 'nodemailer';

export interface ExportMail {
  to: string;
  subject: string;
  text: string;
}

export interface Mailer {
  send(mail: ExportMail): Promise<void>;
  close(): void;
}

/** Email through the SMTP server of `SMTP_URL` (nodemailer); absent URL → no mailer, no email. */
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
