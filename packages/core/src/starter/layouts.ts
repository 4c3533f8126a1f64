import type { ComponentInstance, EmailContent, FieldValue } from '../content/types.ts';
import { nullBranch } from '../content/types.ts';
import eventInvitation from './layouts/event-invitation.json' with { type: 'json' };
import newsletter from './layouts/newsletter.json' with { type: 'json' };
import productLaunch from './layouts/product-launch.json' with { type: 'json' };
import promotion from './layouts/promotion.json' with { type: 'json' };
import receipt from './layouts/receipt.json' with { type: 'json' };
import welcome from './layouts/welcome.json' with { type: 'json' };

/** One section of a starter layout: a starter component, by name, and the values it differs in. */
export interface StarterLayoutSection {
  component: string;
  values: Record<string, string | number | boolean>;
}

/**
 * A layout that ships with the Letterset Starter, written against its components' names (the
 * server gives components ids when it installs the starter). Its pictures are the starter's own
 * (the image fields keep their defaults), so every layout renders from files Letterset serves.
 */
export interface StarterLayout {
  name: string;
  subject: string;
  preheader: string;
  sections: StarterLayoutSection[];
}

/** The locale the starter layouts are written in. */
export const starterLayoutLocale = 'en-US';

// TypeScript types a JSON array of objects as a union of their shapes with every other key as
// `undefined`; the test checks each value against its component's fields instead.
const layouts = [
  newsletter,
  promotion,
  productLaunch,
  welcome,
  eventInvitation,
  receipt,
] as unknown as readonly StarterLayout[];

/** The starter's layouts, in the order the new-email dialog offers them. A fresh copy each call. */
export function starterLayouts(): StarterLayout[] {
  return structuredClone([...layouts]);
}

/** A starter layout's content as the layouts API stores it: what an email started from it begins with. */
export type StarterLayoutContent = Pick<
  EmailContent,
  'subject' | 'preheader' | 'container_component_instance' | 'component_instances'
>;

/**
 * A starter layout with its components' ids: the container's and each section's, looked up by name
 * in the installed design system. `newInstanceId` makes the instance UUIDs (core has no randomness of
 * its own). A name the design system lacks is a programmer error: the layouts are written for the
 * starter, and a test keeps them in step.
 */
export function starterLayoutContent(
  layout: StarterLayout,
  {
    containerComponentId,
    componentIdOf,
    newInstanceId,
  }: {
    containerComponentId: number;
    componentIdOf: (name: string) => number | undefined;
    newInstanceId: () => string;
  },
): StarterLayoutContent {
  const text = (value: string) => ({ branch_content: { [nullBranch]: { [starterLayoutLocale]: value } } });
  const instance = (section: StarterLayoutSection): ComponentInstance => {
    const componentId = componentIdOf(section.component);
    if (componentId === undefined) {
      throw new Error(
        `The starter layout "${layout.name}" uses "${section.component}", which the design system lacks`,
      );
    }
    const values: Record<string, FieldValue> = Object.fromEntries(
      Object.entries(section.values).map(([variable, value]) => [variable, { value }]),
    );
    return {
      id: newInstanceId(),
      component_id: componentId,
      field_values: Object.keys(values).length > 0 ? { [nullBranch]: { [starterLayoutLocale]: values } } : {},
    };
  };
  return {
    subject: text(layout.subject),
    preheader: text(layout.preheader),
    // The container keeps its defaults, so a brand profile's logo and address show through.
    container_component_instance: {
      id: newInstanceId(),
      component_id: containerComponentId,
      field_values: {},
    },
    component_instances: layout.sections.map(instance),
  };
}
