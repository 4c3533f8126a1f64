import { type Browser, expect, type Page } from '@playwright/test';
import { invitationLinkFor } from './outbox.ts';
import { postJson, workspaceId } from './workspace-api.ts';

export interface Invitee {
  firstName: string;
  lastName: string;
  email: string;
  /** A built-in role's name. */
  role: 'Editor' | 'Viewer';
  teamId: number;
  password: string;
}

/**
 * A second person the Admin (`admin`) invites through the API to the workspace and a team, who
 * sets a password from the invitation mail and is signed in in a browser context of their own.
 */
export async function invitedPerson(admin: Page, browser: Browser, invitee: Invitee) {
  const roles = (await (await admin.request.get('/api/v1/roles?per=100')).json()) as {
    results: { id: number; name: string; builtin: boolean }[];
  };
  const role = roles.results.find((candidate) => candidate.builtin && candidate.name === invitee.role);
  if (!role) throw new Error(`No built-in role ${invitee.role}`);
  const user = await postJson<{ id: number }>(admin, '/api/v1/users', {
    first_name: invitee.firstName,
    last_name: invitee.lastName,
    email: invitee.email,
    role_id: role.id,
    workspace_ids: [workspaceId],
    team_ids: [invitee.teamId],
  });
  const context = await browser.newContext({
    storageState: { cookies: [], origins: [] },
    viewport: { width: 1440, height: 900 },
  });
  const page = await context.newPage();
  await page.goto(await invitationLinkFor(invitee.email));
  await page.getByRole('textbox', { name: 'Password', exact: true }).fill(invitee.password);
  await page.getByRole('textbox', { name: 'Repeat the password' }).fill(invitee.password);
  await page.getByRole('button', { name: 'Set password and sign in' }).click();
  await expect(page.getByRole('button', { name: 'Account menu' })).toBeVisible();
  return { id: user.id, name: `${invitee.firstName} ${invitee.lastName}`, context, page };
}
