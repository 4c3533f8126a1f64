import { randomUUID } from 'node:crypto';
import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { FastifyBaseLogger } from 'fastify';
import nodemailer from 'nodemailer';
import type { Config } from '../../config.ts';

export interface MailMessage {
  to: string;
  subject: string;
  text: string;
  html: string;
}

export interface Mailer {
  send(message: MailMessage): Promise<void>;
  close(): void;
}

/** SMTP when SMTP_URL is set; otherwise each message becomes a file in the outbox folder. */
export function createMailer(config: Config, log: FastifyBaseLogger): Mailer {
  if (config.smtpUrl) {
    const transport = nodemailer.createTransport(config.smtpUrl);
    return {
      async send(message) {
        await transport.sendMail({ from: config.mailFrom, ...message });
        log.info({ to: message.to, subject: message.subject }, 'mail sent');
      },
      close: () => transport.close(),
    };
  }
  return {
    async send(message) {
      await mkdir(config.outboxDir, { recursive: true });
      const file = path.join(
        config.outboxDir,
        `${new Date().toISOString().replaceAll(':', '-')}-${randomUUID()}.json`,
      );
      await writeFile(file, `${JSON.stringify({ from: config.mailFrom, ...message }, null, 2)}\n`);
      log.info(
        { to: message.to, subject: message.subject, file },
        'mail written to the outbox (no SMTP_URL set)',
      );
    },
    close: () => {},
  };
}
