import { personalizationTagToken } from '@letterset/core';
import { ActionIcon, Menu, TextInput, type TextInputProps, Tooltip } from '@mantine/core';
import { IconUserPlus } from '@tabler/icons-react';
import { useRef } from 'react';
import type { PersonalizationTag } from '../editor-api.ts';

/**
 * A one-line text input with a menu that inserts a personalization tag's token at the cursor; the
 * preview shows the tag's example value in its place.
 */
export function TextWithTags({
  value,
  onChange,
  personalizationTags,
  disabled,
  ...inputProps
}: Omit<TextInputProps, 'value' | 'onChange'> & {
  value: string;
  onChange: (value: string) => void;
  personalizationTags: readonly PersonalizationTag[];
}) {
  const input = useRef<HTMLInputElement>(null);
  function insert(tag: PersonalizationTag) {
    const element = input.current;
    const token = personalizationTagToken(tag.id);
    const start = element?.selectionStart ?? value.length;
    const end = element?.selectionEnd ?? value.length;
    onChange(value.slice(0, start) + token + value.slice(end));
    requestAnimationFrame(() => {
      element?.focus();
      element?.setSelectionRange(start + token.length, start + token.length);
    });
  }
  return (
    <TextInput
      ref={input}
      value={value}
      disabled={disabled}
      onChange={(event) => onChange(event.currentTarget.value)}
      rightSection={
        personalizationTags.length > 0 && !disabled ? (
          <Menu position="bottom-end">
            <Menu.Target>
              <Tooltip label="Insert a personalization tag">
                <ActionIcon
                  variant="subtle"
                  size="sm"
                  aria-label={`Insert a personalization tag into ${String(inputProps.label)}`}
                >
                  <IconUserPlus size={14} />
                </ActionIcon>
              </Tooltip>
            </Menu.Target>
            <Menu.Dropdown>
              {personalizationTags.map((tag) => (
                <Menu.Item key={tag.id} onClick={() => insert(tag)}>
                  {tag.label}
                </Menu.Item>
              ))}
            </Menu.Dropdown>
          </Menu>
        ) : null
      }
      {...inputProps}
    />
  );
}
