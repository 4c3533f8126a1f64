import { Input, Skeleton } from '@mantine/core';
import type { ReactNode } from 'react';
import { LoadingDialog, LoadingPanel, onDemand } from '../../shared/on-demand.tsx';

/**
 * The editor's pieces that are not on its first screen, each downloaded when first shown: the
 * first screen (outline, preview, toolbar) waits for none of them. TipTap and ProseMirror come with
 * the text fields and the in-place editor, CodeMirror with the first code field, the side panel's
 * other tabs when opened, the dialogs when they open.
 */

function fieldPlaceholder(height: number) {
  return ({ label, description }: { label: string; description?: ReactNode }) => (
    <Input.Wrapper label={label} description={description}>
      <Skeleton h={height} />
    </Input.Wrapper>
  );
}

export const TextWithTags = onDemand(
  () => import('./fields/TextWithTags.tsx').then((module) => module.TextWithTags),
  fieldPlaceholder(36),
);

export const RichTextField = onDemand(
  () => import('./fields/RichTextField.tsx').then((module) => module.RichTextField),
  fieldPlaceholder(120),
);

export const CodeField = onDemand(
  () => import('./fields/CodeField.tsx').then((module) => module.CodeField),
  fieldPlaceholder(120),
);

export const ImagePickerDialog = onDemand(
  () => import('../images/ImagePickerDialog.tsx').then((module) => module.ImagePickerDialog),
  ({ opened, onClose }) => (opened ? <LoadingDialog onClose={onClose} /> : null),
);

export const SettingsPanel = onDemand(
  () => import('./SettingsPanel.tsx').then((module) => module.SettingsPanel),
  <LoadingPanel />,
);

export const ValidatePanel = onDemand(
  () => import('./ValidatePanel.tsx').then((module) => module.ValidatePanel),
  <LoadingPanel />,
);

export const VersionsPanel = onDemand(
  () => import('./VersionsPanel.tsx').then((module) => module.VersionsPanel),
  <LoadingPanel />,
);

export const LocalizationPanel = onDemand(
  () => import('../localization/LocalizationPanel.tsx').then((module) => module.LocalizationPanel),
  <LoadingPanel />,
);

export const TranslateWithAi = onDemand(
  () => import('../localization/TranslateWithAi.tsx').then((module) => module.TranslateWithAi),
  null,
);

export const ExportDialog = onDemand(
  () => import('../exports/ExportDialog.tsx').then((module) => module.ExportDialog),
  LoadingDialog,
);

export const SaveAsLayoutModal = onDemand(
  () => import('../layouts/SaveAsLayoutModal.tsx').then((module) => module.SaveAsLayoutModal),
  LoadingDialog,
);

/**
 * Opens over the clicked element at once in practice: it is preloaded once the editor is idle
 * (`preloadEditing`), so nothing shows in its place the rare time it is still on its way.
 */
export const InPlaceEditor = onDemand(
  () => import('./canvas/InPlaceEditor.tsx').then((module) => module.InPlaceEditor),
  null,
);

/**
 * Downloads the editing pieces once the browser is idle after the editor's first screen, so the
 * first click into a field seldom waits for them.
 */
export function preloadEditing(): () => void {
  const preload = () => {
    // A failed download is tried again when the piece is shown: nothing to do about it here.
    for (const piece of [InPlaceEditor, TextWithTags, RichTextField]) piece.preload().catch(() => {});
  };
  if (typeof window.requestIdleCallback !== 'function') {
    const timer = window.setTimeout(preload, 1000);
    return () => window.clearTimeout(timer);
  }
  const request = window.requestIdleCallback(preload, { timeout: 3000 });
  return () => window.cancelIdleCallback(request);
}
