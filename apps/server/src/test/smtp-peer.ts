import type { AddressInfo } from 'node:net';
import { SMTPServer } from 'smtp-server';

export interface ReceivedMail {
  from: string | undefined;
  to: string[];
  raw: string;
  /** `raw` as a person reads it: quoted-printable bodies and encoded-word headers decoded. */
  readable: string;
}

/** A real SMTP server on a free loopback port that keeps what it receives. */
export async function startSmtpPeer(): Promise<{
  url: string;
  received: ReceivedMail[];
  stop(): Promise<void>;
}> {
  const received: ReceivedMail[] = [];
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS'],
    onData(stream, session, callback) {
      let raw = '';
      stream.setEncoding('utf8');
      stream.on('data', (chunk: string) => {
        raw += chunk;
      });
      stream.on('end', () => {
        received.push({
          from: session.envelope.mailFrom ? session.envelope.mailFrom.address : undefined,
          to: session.envelope.rcptTo.map((recipient) => recipient.address),
          raw,
          readable: readableMail(raw),
        });
        callback();
      });
    },
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.server.address() as AddressInfo;
  return {
    url: `smtp://127.0.0.1:${port}`,
    received,
    stop: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

/** Undoes the two encodings nodemailer applies: `=?UTF-8?Q?…?=` headers and quoted-printable bodies. */
function readableMail(raw: string): string {
  const bytes = (hex: string) => Buffer.from(hex.replaceAll('=', ''), 'hex').toString('utf8');
  return raw
    .replace(/\?=\s+=\?UTF-8\?Q\?/gi, '') // adjacent encoded words are one text (RFC 2047)
    .replace(/=\?UTF-8\?Q\?([^?]*)\?=/gi, (_, text: string) =>
      text.replaceAll('_', ' ').replace(/(?:=[0-9A-F]{2})+/g, bytes),
    )
    .replace(/=\r?\n/g, '')
    .replace(/(?:=[0-9A-F]{2})+/g, bytes);
}
