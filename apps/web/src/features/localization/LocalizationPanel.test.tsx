import type { BrandedComponent, EditorDocument } from '@letterset/core';
import { permissionKeys } from '@letterset/core/permissions';
import { ModalsProvider } from '@mantine/modals';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { render, screen, within } from '@testing-library/react';
import { userEvent } from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { renderableSession } from '../editor/test-session.tsx';
import { ImportSummary, LocalizationPanel } from './LocalizationPanel.tsx';
import { formatOfFile, importProblems, translationsDownloadHref } from './localization-api.ts';

const headingId = '00000000-0000-4000-8000-000000000001';

const heading: BrandedComponent = {
  id: 2,
  name: 'heading',
  label: 'Heading',
  container: false,
  hidden: false,
  template: '<h1>{{ text }}</h1>',
  field_definitions: [
    { type: 'text', label: 'Text', liquid_variable: 'text', default_value: 'Section heading' },
    { type: 'rich_text', label: 'Body', liquid_variable: 'body', default_value: '<p></p>' },
  ],
};

function translatedDocument(): EditorDocument {
  return {
    locales: ['en-US', 'fr-FR', 'he-IL'],
    defaultLocale: 'en-US',
    content: {
      subject: {
        conditional_id: null,
        branch_content: { null_branch: { 'en-US': 'Hello', 'fr-FR': 'Bonjour', 'he-IL': 'Hello' } },
      },
      preheader: { conditional_id: null, branch_content: { null_branch: { 'en-US': 'Read on' } } },
      container_component_instance: {
        id: '00000000-0000-4000-8000-000000000000',
        component_id: 1,
        field_values: {},
      },
      component_instances: [
        {
          id: headingId,
          component_id: 2,
          field_values: {
            null_branch: {
              'en-US': { text: { value: 'Welcome' }, body: { value: '<p>Hi <b>all</b></p>' } },
              'fr-FR': { text: { value: 'Bienvenue' } },
            },
          },
        },
      ],
    },
  };
}

describe('localization files', () => {
  it('reads the format from the file name', () => {
    expect(formatOfFile('Spring sale-translations.csv')).toBe('csv');
    expect(formatOfFile('Spring sale-fr-FR.XLF')).toBe('xliff');
    expect(formatOfFile('export.xliff')).toBe('xliff');
    expect(formatOfFile('notes.docx')).toBeNull();
  });

  it('downloads CSV for every locale and XLIFF for one', () => {
    expect(translationsDownloadHref(3, 9, 'csv')).toBe(
      '/api/v1/workspaces/3/emails/9/translation_spreadsheets',
    );
    expect(translationsDownloadHref(3, 9, 'xliff', 'fr-FR')).toBe(
      '/api/v1/workspaces/3/emails/9/translation_spreadsheets?format=xliff&locale=fr-FR',
    );
  });

  it('lists problems of the file as a whole first, then each place', () => {
    expect(
      importProblems({
        'row 3, column fr-FR': ['must be at most 30 characters'],
        csv_file: ['has 2 more problems not listed here'],
      }),
    ).toEqual([
      { where: 'The file', messages: ['has 2 more problems not listed here'] },
      { where: 'row 3, column fr-FR', messages: ['must be at most 30 characters'] },
    ]);
  });
});

describe('LocalizationPanel', () => {
  it('shows each locale’s completion and the selected component beside the default locale', () => {
    const { Live } = renderableSession(
      { componentsById: new Map([[2, heading]]), selectedId: headingId, workspaceId: 3 },
      permissionKeys,
      translatedDocument(),
    );
    render(
      <QueryClientProvider client={new QueryClient()}>
        <Live>
          {() => (
            <LocalizationPanel
              email={{ id: 9, name: 'Spring sale' }}
              canImport
              importBlockedReason={null}
              onImported={() => {}}
            />
          )}
        </Live>
      </QueryClientProvider>,
    );
    // Subject, preheader, heading text and body need translating: fr-FR has two, he-IL none.
    expect(screen.getByText('2 of 4 translated')).toBeTruthy();
    expect(screen.getByText('0 of 4 translated')).toBeTruthy();
    expect(screen.getByText('RTL')).toBeTruthy();
    expect(screen.getByRole('link', { name: 'Download CSV' }).getAttribute('href')).toBe(
      '/api/v1/workspaces/3/emails/9/translation_spreadsheets',
    );
    expect(screen.getByRole('link', { name: 'Download XLIFF' }).getAttribute('href')).toBe(
      '/api/v1/workspaces/3/emails/9/translation_spreadsheets?format=xliff&locale=fr-FR',
    );
    expect(screen.getByText('Bienvenue')).toBeTruthy();
    // Rich text is compared as what it reads.
    expect(screen.getByText('Hi all')).toBeTruthy();
    expect(screen.getByText('Not translated')).toBeTruthy();
  });

  function renderPanel(document: EditorDocument) {
    const session = renderableSession(
      { componentsById: new Map([[2, heading]]), selectedId: headingId, workspaceId: 3 },
      permissionKeys,
      document,
    );
    render(
      <QueryClientProvider client={new QueryClient()}>
        <session.Live>
          {() => (
            <ModalsProvider>
              <LocalizationPanel
                email={{ id: 9, name: 'Spring sale' }}
                canImport
                importBlockedReason={null}
                onImported={() => {}}
              />
            </ModalsProvider>
          )}
        </session.Live>
      </QueryClientProvider>,
    );
    return session.editor;
  }
  const frenchHeading = (editor: ReturnType<typeof renderPanel>) =>
    editor.getState().document.content.component_instances[0]?.field_values.null_branch?.['fr-FR'];

  it('copies the whole email from another locale, asking first when it replaces translated values', async () => {
    const editor = renderPanel(translatedDocument());
    await userEvent.click(screen.getByRole('button', { name: 'Copy en-US into fr-FR' }));
    // French has its own subject and heading: the copy would replace them.
    const dialog = await screen.findByRole('dialog', { name: 'Copy en-US into fr-FR?' });
    expect(dialog).toHaveTextContent('2 values of fr-FR were translated or edited');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    expect(frenchHeading(editor)?.text).toEqual({ value: 'Bienvenue' });

    await userEvent.click(screen.getByRole('button', { name: 'Copy en-US into fr-FR' }));
    await userEvent.click(
      within(await screen.findByRole('dialog', { name: 'Copy en-US into fr-FR?' })).getByRole('button', {
        name: 'Copy and replace',
      }),
    );
    expect(frenchHeading(editor)).toEqual({
      text: { value: 'Welcome', translation_status: 'copied' },
      body: { value: '<p>Hi <b>all</b></p>', translation_status: 'copied' },
    });
    expect(editor.getState().document.content.subject.branch_content.null_branch?.['fr-FR']).toBe('Hello');
    // Copies count as not translated, and say so beside each text.
    // (he-IL had nothing translated already.)
    expect(screen.getAllByText('0 of 4 translated')).toHaveLength(2);
    expect(screen.getAllByText('Copied, not translated')).toHaveLength(2);
    // A copy again replaces only copies: nothing to ask.
    await userEvent.click(screen.getByRole('button', { name: 'Copy en-US into fr-FR' }));
    expect(screen.queryByRole('dialog')).toBeNull();
  });

  it('keeps a copied text as translated, so the untranslated check stops reporting it', async () => {
    const document = translatedDocument();
    const instance = document.content.component_instances[0];
    if (!instance) throw new Error('fixture');
    instance.field_values = {
      null_branch: {
        'en-US': { text: { value: 'Letterset' } },
        'fr-FR': { text: { value: 'Letterset', translation_status: 'copied' } },
      },
    };
    const editor = renderPanel(document);
    expect(screen.getByText('Copied, not translated')).toBeTruthy();
    await userEvent.click(screen.getByRole('button', { name: 'Keep as translated' }));
    expect(frenchHeading(editor)?.text).toEqual({ value: 'Letterset', translation_status: 'translated' });
    expect(screen.getByText('Translated')).toBeTruthy();
    expect(screen.queryByText('Copied, not translated')).toBeNull();
  });

  it('sums up an import per locale', () => {
    const { Live } = renderableSession();
    render(
      <Live>
        {() => (
          <ImportSummary
            fileName="fr.xlf"
            result={{
              changed: { 'fr-FR': 3 },
              unchanged: { 'fr-FR': 1 },
              skipped: { 'fr-FR': 2 },
              lock_version: 7,
            }}
          />
        )}
      </Live>,
    );
    expect(screen.getByText('3 texts changed, saved as one new version.')).toBeTruthy();
    expect(screen.getByText(/3 changed, 1 unchanged, 2 empty left as they were/)).toBeTruthy();
  });
});
