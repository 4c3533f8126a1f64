import {
  applyBrandProfile,
  type BranchSelection,
  type ContentValidationResult,
  type RenderOutput,
  textDirectionOf,
  validateEmailContent,
} from '@letterset/core';
import { eq } from 'drizzle-orm';
import type { Static } from 'typebox';
import { emailDesignSystems, projects } from '../../db/schema.ts';
import { ValidationError } from '../../http/errors.ts';
import type { Principal } from '../../http/principal.ts';
import type { Services } from '../../services.ts';
import { findBrandProfile, toBrandProfileDefinition } from '../brand-profiles/brand-profiles.service.ts';
import { loadDynamicContent } from '../dynamic-content-profiles/dynamic-content-profiles.service.ts';
import {
  designSystemComponents,
  renderStrictly,
  toDesignSystemDefinition,
} from '../renders/renders.service.ts';
import { findVisibleEmail } from './email-visibility.ts';
import type { TestSendBody } from './emails.schemas.ts';
import { contentOf, type EmailRow } from './emails.serializers.ts';

/**
 * What rendering an email needs besides its own row: its system, components, brand profile, and
 * the workspace's dynamic content with the email's link tracking profile (compiled for a dynamic
 * content profile when one is named: 422 when the workspace has no such profile).
 */
export async function renderingContext(
  services: Services,
  email: EmailRow,
  dynamicContentProfileId: string | null = null,
) {
  const [[system], { definitions }, brandProfile, dynamicContent] = await Promise.all([
    services.database.db
      .select()
      .from(emailDesignSystems)
      .where(eq(emailDesignSystems.id, email.emailDesignSystemId)),
    designSystemComponents(services, email.emailDesignSystemId),
    email.brandProfileId === null
      ? null
      : findBrandProfile(services, email.emailDesignSystemId, email.brandProfileId).then(
          toBrandProfileDefinition,
        ),
    loadDynamicContent(services, email.workspaceId, {
      profileId: dynamicContentProfileId,
      linkTrackingProfileId: email.linkTrackingProfileId,
    }),
  ]);
  if (!system) throw new Error(`email ${email.id} names a missing design system`);
  return { system, definitions, brandProfile, dynamicContent };
}

async function renderSavedEmail(
  services: Services,
  email: EmailRow,
  locale: string,
  branchSelection: BranchSelection | undefined,
  options: { plainText?: boolean } = {},
): Promise<RenderOutput> {
  if (!email.locales.includes(locale)) throw ValidationError.field('locale', 'is not a locale of this email');
  const [{ system, definitions, brandProfile, dynamicContent }, [project]] = await Promise.all([
    renderingContext(services, email),
    services.database.db
      .select({ id: projects.id, name: projects.name })
      .from(projects)
      .where(eq(projects.id, email.projectId)),
  ]);
  return renderStrictly(
    services.renderer,
    {
      designSystem: toDesignSystemDefinition(system),
      components: definitions,
      brandProfile,
      content: contentOf(email),
      locale,
      mode: 'render_api',
      dynamicContent,
      branchSelection,
      email: { id: email.id, name: email.name, textDirection: textDirectionOf(locale) },
      project: project ?? null,
    },
    'email_content',
    options,
  );
}

/** The saved email in one locale, as HTML, subject, preheader and plain text. */
export async function renderEmail(
  services: Services,
  principal: Principal,
  workspaceId: number,
  id: number,
  locale: string,
  branchSelection: BranchSelection | undefined,
) {
  const { email } = await findVisibleEmail(services, principal, workspaceId, id);
  const output = await renderSavedEmail(services, email, locale, branchSelection, { plainText: true });
  return {
    html: output.html,
    subject: output.subject,
    preheader: output.preheader,
    plain_text: output.plainText,
  };
}

/** Field validations over every branch and locale: what must be fixed before the email is sent. */
export async function validateSavedEmail(
  services: Services,
  principal: Principal,
  workspaceId: number,
  id: number,
): Promise<ContentValidationResult> {
  const { email } = await findVisibleEmail(services, principal, workspaceId, id);
  const { definitions, brandProfile, dynamicContent } = await renderingContext(services, email);
  const branchKeys = new Map(
    (dynamicContent.conditionals ?? []).map((conditional) => [
      conditional.id,
      conditional.branches.map((branch) => branch.key),
    ]),
  );
  return validateEmailContent({
    content: contentOf(email),
    components: applyBrandProfile(definitions, brandProfile),
    locales: email.locales,
    // Every branch a reader may see is checked, including branches nobody has filled in yet.
    branchKeysOf: (conditionalId) => branchKeys.get(conditionalId),
  });
}

/** Renders the email and mails it to up to ten people, subject marked [Test]. */
export async function sendTestEmail(
  services: Services,
  principal: Principal,
  workspaceId: number,
  id: number,
  input: Static<typeof TestSendBody>,
) {
  const { email } = await findVisibleEmail(services, principal, workspaceId, id);
  const locale = input.locale ?? email.defaultLocale;
  const output = await renderSavedEmail(services, email, locale, input.branch_selection, { plainText: true });
  const subject = `[Test] ${output.subject || email.name}`;
  for (const recipient of input.recipients) {
    await services.mailer.send({ to: recipient, subject, html: output.html, text: output.plainText });
  }
  return {
    recipients: input.recipients,
    locale,
    subject,
    delivered_via: services.config.smtpUrl ? ('smtp' as const) : ('outbox' as const),
  };
}
