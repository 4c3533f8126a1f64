import type { CustomStyle, FieldDefinition } from '../fields/types.ts';
import type { ComponentDefinition, DesignSystemDefinition } from '../render/design-system.ts';
import starterJson from './letterset-starter.json' with { type: 'json' };

/** A component in the design-system import format (no ids: the server assigns them). */
export interface ImportedComponent {
  name: string;
  label: string;
  description?: string | null;
  template: string;
  field_definitions: FieldDefinition[];
  deprecated?: boolean;
}

/** The design-system import/sync payload: `{"email_design_system": {...}}`. */
export interface DesignSystemImport {
  email_design_system: {
    name: string;
    description: string | null;
    design_tokens: Record<string, unknown>;
    custom_styles: CustomStyle[];
    container_component: ImportedComponent;
    components: ImportedComponent[];
  };
}

/** Where the starter's JSON names the folder its placeholder pictures are served from. */
const imagesFolderMarker = '{starter_images}';

/** The placeholder pictures the starter's image fields and social icons point at, by file name. */
export const starterImageFiles = [
  'logo.png',
  'hero.png',
  'image.png',
  'image-and-text.png',
  'product.png',
  ...['light', 'dark'].flatMap((theme) =>
    ['f', 'ig', 'x', 'in'].map((network) => `social-${theme}-${network}.png`),
  ),
] as const;

/**
 * "Letterset Starter": a responsive, table-based design system new workspaces can import. The
 * JSON is in the import format, so it can also be downloaded and posted to the import endpoint.
 * Its placeholder pictures ship with Letterset: `imagesUrl` is the folder they are served from (the
 * server's file storage), so a new email loads nothing from hosts its users did not choose.
 */
export function starterDesignSystem({ imagesUrl }: { imagesUrl: string }): DesignSystemImport {
  // A fresh copy each time: callers may edit what they get.
  const json = JSON.stringify(starterJson).replaceAll(imagesFolderMarker, imagesUrl.replace(/\/+$/, ''));
  return JSON.parse(json) as DesignSystemImport;
}

/** A design-system import with ids assigned: the shapes `render()` takes. */
export interface ImportedDesignSystem {
  designSystem: DesignSystemDefinition;
  components: ComponentDefinition[];
  containerComponentId: number;
}

/**
 * Gives an import's container and components ids (container first, then the components in
 * order, counting from `firstId`), for previews and tests that render an import before saving it.
 */
export function definitionsFromImport(
  imported: DesignSystemImport,
  ids: { designSystemId?: number; firstComponentId?: number } = {},
): ImportedDesignSystem {
  const system = imported.email_design_system;
  const firstId = ids.firstComponentId ?? 1;
  const components: ComponentDefinition[] = [
    { ...system.container_component, id: firstId, container: true },
    ...system.components.map((component, index) => ({
      ...component,
      id: firstId + 1 + index,
      container: false,
    })),
  ];
  return {
    designSystem: {
      id: ids.designSystemId ?? 1,
      name: system.name,
      design_tokens: system.design_tokens,
      custom_styles: system.custom_styles,
    },
    components,
    containerComponentId: firstId,
  };
}
export * from './layouts.ts';
