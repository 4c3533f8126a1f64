import {
  type FieldTarget,
  type FieldValue,
  setFieldValue,
  setGlobalLinkTrackingParameter,
  setLinkTrackingParameter,
} from '@letterset/core';
import { Stack, Text, TextInput } from '@mantine/core';
import { dispatchCommand, useEditorSession } from '../EditorContext.tsx';
import type { LinkTrackingProfile } from '../editor-api.ts';

type EditorParameterType = 'editor_field_value' | 'editor_global_field_value';

/** The names of the profile's parameters whose values are typed in the editor, in the profile's order. */
export function editorParameterNames(
  profile: LinkTrackingProfile | null,
  type: EditorParameterType,
): string[] {
  return (profile?.parameters ?? [])
    .filter((parameter) => parameter.type === type)
    .map((parameter) => parameter.parameter);
}

/** A blank input removes the parameter, so the link goes out without it. */
function parameterValue(text: string): string | null {
  return text === '' ? null : text;
}

/**
 * The per-link parameters of the email's link tracking profile, for one url or rich-text field
 * value (the locale and branch being edited; in rich text they apply to every link). Parameters
 * live on the stored value, so a value still showing its default is stored first.
 */
export function LinkTrackingFields({
  target,
  fieldLabel,
  stored,
  shownValue,
}: {
  target: FieldTarget;
  fieldLabel: string;
  stored: FieldValue | undefined;
  /** The value the field shows, stored before the first parameter when nothing is stored yet. */
  shownValue: string;
}) {
  const { editor, readOnly, linkTrackingProfile } = useEditorSession();
  const names = editorParameterNames(linkTrackingProfile, 'editor_field_value');
  if (names.length === 0) return null;
  function change(parameter: string, text: string) {
    if (stored === undefined && !dispatchCommand(editor, setFieldValue(target, shownValue))) return;
    dispatchCommand(editor, setLinkTrackingParameter(target, parameter, parameterValue(text)));
  }
  return (
    <Stack gap={4} pl="sm" role="group" aria-label={`Link tracking for ${fieldLabel}`}>
      <Text size="xs" c="dimmed">
        Link tracking for {fieldLabel}
      </Text>
      {names.map((parameter) => (
        <TextInput
          key={parameter}
          size="xs"
          label={parameter}
          disabled={readOnly}
          value={stored?.link_tracking_parameters?.[parameter] ?? ''}
          onChange={(event) => change(parameter, event.currentTarget.value)}
        />
      ))}
    </Stack>
  );
}

/** The email-wide parameters of the link tracking profile: one value for every tracked link. */
export function GlobalLinkTrackingFields({ values }: { values: Record<string, string> | undefined }) {
  const { editor, readOnly, linkTrackingProfile } = useEditorSession();
  const names = editorParameterNames(linkTrackingProfile, 'editor_global_field_value');
  if (names.length === 0) return null;
  return (
    <Stack gap={4} role="group" aria-label="Link tracking values for every link">
      {names.map((parameter) => (
        <TextInput
          key={parameter}
          label={parameter}
          description="Added to every tracked link in this email."
          disabled={readOnly}
          value={values?.[parameter] ?? ''}
          onChange={(event) =>
            dispatchCommand(
              editor,
              setGlobalLinkTrackingParameter(parameter, parameterValue(event.currentTarget.value)),
            )
          }
        />
      ))}
    </Stack>
  );
}
