import type { EditorDocument } from '@letterset/core';
import { permissionKeys } from '@letterset/core/permissions';
import { render, screen } from '@testing-library/react';
import { userEvent } from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { SettingsPanel } from './SettingsPanel.tsx';
import { instanceId, renderableSession, testDocument } from './test-session.tsx';

/** The test email in English and French, each with its own link. */
function bilingualDocument(): EditorDocument {
  const document = testDocument();
  const [instance] = document.content.component_instances;
  if (!instance) throw new Error('the test document has an instance');
  instance.field_values.null_branch = {
    'en-US': { link: { value: 'https://example.com/' } },
    'fr-FR': { link: { value: 'https://example.com/fr' } },
  };
  return { ...document, locales: ['en-US', 'fr-FR'] };
}

function renderSettings(document: EditorDocument) {
  const { editor, Live } = renderableSession({}, permissionKeys, document);
  render(
    <Live>
      {(current) => (
        <SettingsPanel
          kind="email"
          document={current}
          brandProfileId={null}
          brandProfiles={[]}
          onBrandProfileChange={() => {}}
          linkTrackingProfileId={null}
          linkTrackingProfiles={[]}
          onLinkTrackingProfileChange={() => {}}
        />
      )}
    </Live>,
  );
  return editor;
}

const linkIn = (document: EditorDocument, locale: string) =>
  document.content.component_instances.find((instance) => instance.id === instanceId)?.field_values
    .null_branch?.[locale]?.link?.value;

describe('email settings: locales', () => {
  it('adds a locale as a copy of the default locale, or of the locale chosen to copy', async () => {
    const user = userEvent.setup();
    const editor = renderSettings(bilingualDocument());
    expect(screen.getByText(/A new locale starts as a copy of en-US/)).toBeTruthy();

    await user.click(screen.getByLabelText('New locales copy', { selector: 'input' }));
    await user.click(await screen.findByRole('option', { name: /\(fr-FR\)/ }));
    expect(screen.getByText(/A new locale starts as a copy of fr-FR/)).toBeTruthy();

    await user.click(screen.getByLabelText('Locales', { selector: 'input' }));
    await user.click(await screen.findByRole('option', { name: /\(de-DE\)/ }));
    const { document } = editor.getState();
    expect(document.locales).toEqual(['en-US', 'fr-FR', 'de-DE']);
    expect(linkIn(document, 'de-DE')).toBe('https://example.com/fr');
  });

  it('offers no source to copy while the email has one locale', () => {
    renderSettings(testDocument());
    expect(screen.queryByLabelText('New locales copy', { selector: 'input' })).toBeNull();
  });
});
