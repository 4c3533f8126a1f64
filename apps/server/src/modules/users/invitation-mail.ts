import { eq } from 'drizzle-orm';
import { organizations, users } from '../../db/schema.ts';
import { randomToken, tokenDigest } from '../../security/tokens.ts';
import type { Services } from '../../services.ts';

/** Invitation links work for a week; sending a new one replaces the old link. */
export const invitationLifetimeMs = 7 * 24 * 60 * 60 * 1000;

type InvitedUser = Pick<typeof users.$inferSelect, 'id' | 'firstName' | 'email'>;

/** Emails the person a one-time link to set their password, and records when it was sent. */
export async function sendInvitation(
  services: Pick<Services, 'config' | 'database' | 'mailer'>,
  user: InvitedUser,
  invitedBy: string,
): Promise<void> {
  const token = randomToken();
  const now = new Date();
  const [organization] = await services.database.db
    .update(users)
    .set({
      invitationTokenHash: tokenDigest(token),
      invitationExpiresAt: new Date(now.getTime() + invitationLifetimeMs),
      invitationSentAt: now,
    })
    .where(eq(users.id, user.id))
    .returning({ organizationId: users.organizationId })
    .then(async ([row]) =>
      row
        ? services.database.db
            .select({ name: organizations.name })
            .from(organizations)
            .where(eq(organizations.id, row.organizationId))
        : [],
    );
  const link = `${services.config.appUrl}/invitations/${token}`;
  const organizationName = organization?.name ?? 'Letterset';
  await services.mailer.send({
    to: user.email,
    subject: `${invitedBy} invited you to ${organizationName} on Letterset`,
    text: [
      `Hi ${user.firstName},`,
      '',
      `${invitedBy} invited you to join ${organizationName} on Letterset.`,
      `Set your password to get started: ${link}`,
      '',
      'The link works once and expires in 7 days.',
    ].join('\n'),
    html: [
      `<p>Hi ${escapeHtml(user.firstName)},</p>`,
      `<p>${escapeHtml(invitedBy)} invited you to join <strong>${escapeHtml(organizationName)}</strong> on Letterset.</p>`,
      `<p><a href="${link}">Set your password to get started</a></p>`,
      '<p>The link works once and expires in 7 days.</p>',
    ].join('\n'),
  });
}

function escapeHtml(text: string): string {
  return text
    .replaceAll('&', '&amp;')
    .replaceAll('<', '&lt;')
    .replaceAll('>', '&gt;')
    .replaceAll('"', '&quot;');
}
