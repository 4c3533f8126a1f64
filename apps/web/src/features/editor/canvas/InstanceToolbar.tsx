import type { FieldDefinition } from '@letterset/core';
import { ActionIcon, Group, Menu, Paper, Tooltip } from '@mantine/core';
import { IconCopy, IconDots, IconLink, IconPhoto, IconTrash } from '@tabler/icons-react';
import { memo, useLayoutEffect, useRef, useState } from 'react';
import { type Box, instanceToolbarPosition, type Size } from './overlay-geometry.ts';

/** The fields that get a button of their own: pictures and links; the others are in the menu. */
function ownButtonIcon(definition: FieldDefinition) {
  if (definition.type === 'image') return IconPhoto;
  if (definition.type === 'url') return IconLink;
  return null;
}

/**
 * A small bar at the selected instance's top right in the preview: a button for each of its
 * fields the preview cannot edit in place (pictures and links at once, the rest in a menu), each
 * opening the field in the side panel, then duplicate and delete when the role may change the
 * email's structure.
 */
export const InstanceToolbar = memo(function InstanceToolbar({
  instanceLabel,
  instanceBox,
  frameSize,
  fields,
  onOpenField,
  onDuplicate,
  onRemove,
}: {
  instanceLabel: string;
  /** The instance's box in the frame's viewport; null while it is not shown. */
  instanceBox: Box | null;
  frameSize: Size;
  fields: readonly FieldDefinition[];
  onOpenField: (variable: string) => void;
  onDuplicate: (() => void) | null;
  onRemove: (() => void) | null;
}) {
  const bar = useRef<HTMLDivElement>(null);
  const [size, setSize] = useState<Size>({ width: 0, height: 0 });
  useLayoutEffect(() => {
    const element = bar.current;
    if (element && (element.offsetWidth !== size.width || element.offsetHeight !== size.height))
      setSize({ width: element.offsetWidth, height: element.offsetHeight });
  });
  const position = instanceBox && instanceToolbarPosition(instanceBox, size, frameSize);
  const withButton = fields.filter((definition) => ownButtonIcon(definition));
  const inMenu = fields.filter((definition) => !ownButtonIcon(definition));
  if (fields.length === 0 && !onDuplicate && !onRemove) return null;

  return (
    <Paper
      ref={bar}
      role="toolbar"
      aria-label={`${instanceLabel} actions`}
      shadow="sm"
      withBorder
      p={2}
      style={{
        position: 'absolute',
        top: position?.top ?? 0,
        left: position?.left ?? 0,
        visibility: position ? 'visible' : 'hidden',
        pointerEvents: 'auto',
        zIndex: 2,
      }}
    >
      <Group gap={2} wrap="nowrap">
        {withButton.map((definition) => {
          const Icon = ownButtonIcon(definition) ?? IconDots;
          return (
            <Tooltip key={definition.liquid_variable} label={definition.label} withinPortal>
              <ActionIcon
                size="sm"
                variant="subtle"
                aria-label={`Edit ${definition.label}`}
                onClick={() => onOpenField(definition.liquid_variable)}
              >
                <Icon size={14} />
              </ActionIcon>
            </Tooltip>
          );
        })}
        {inMenu.length > 0 && (
          <Menu position="bottom-end" withinPortal>
            <Menu.Target>
              <ActionIcon size="sm" variant="subtle" aria-label={`More fields of ${instanceLabel}`}>
                <IconDots size={14} />
              </ActionIcon>
            </Menu.Target>
            <Menu.Dropdown>
              {inMenu.map((definition) => (
                <Menu.Item
                  key={definition.liquid_variable}
                  onClick={() => onOpenField(definition.liquid_variable)}
                >
                  {definition.label}
                </Menu.Item>
              ))}
            </Menu.Dropdown>
          </Menu>
        )}
        {onDuplicate && (
          <Tooltip label="Duplicate" withinPortal>
            <ActionIcon
              size="sm"
              variant="subtle"
              aria-label={`Duplicate ${instanceLabel}`}
              onClick={onDuplicate}
            >
              <IconCopy size={14} />
            </ActionIcon>
          </Tooltip>
        )}
        {onRemove && (
          <Tooltip label="Delete" withinPortal>
            <ActionIcon
              size="sm"
              variant="subtle"
              color="red"
              aria-label={`Delete ${instanceLabel}`}
              onClick={onRemove}
            >
              <IconTrash size={14} />
            </ActionIcon>
          </Tooltip>
        )}
      </Group>
    </Paper>
  );
});
