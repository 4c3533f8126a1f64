import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { expect } from '@playwright/test';

/** The invitation link in the mail the server wrote to its outbox folder for this address. */
export async function invitationLinkFor(email: string): Promise<string> {
  const outbox = path.join(process.env.E2E_DATA_DIR ?? '', 'outbox');
  let link: string | undefined;
  await expect
    .poll(async () => {
      const files = await readdir(outbox).catch(() => []);
      for (const file of files) {
        const message = JSON.parse(await readFile(path.join(outbox, file), 'utf8')) as {
          to: string;
          text: string;
        };
        // Other mails (notifications) go to the same address: only the invitation has the link.
        if (message.to === email) link = message.text.match(/https?:\/\/\S+\/invitations\/\S+/)?.[0] ?? link;
      }
      return link;
    })
    .toBeTruthy();
  return link as string;
}
