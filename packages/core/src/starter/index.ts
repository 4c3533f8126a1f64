import type { CustomStyle, FieldDefinition } from '../fields/types.ts';
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

/**
 * "Letterset Starter": a responsive, table-based design system new workspaces can import. The
 * JSON is in the import format, so it can also be downloaded and posted to the import endpoint.
 */
export function starterDesignSystem(): DesignSystemImport {
  // A fresh copy each time: callers may edit what they get.
  return structuredClone(starterJson as DesignSystemImport);
}
