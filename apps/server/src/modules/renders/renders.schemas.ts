import { maxComponentInstances } from '@letterset/core';
import { Type } from 'typebox';
import {
  ContentValue,
  Id,
  RequestBody,
  Text,
  Timestamp,
  Uuid,
  WorkspaceIdParams,
} from '../../http/schemas.ts';
import { BranchedInstance, BranchedText } from '../email-content/email-content.schemas.ts';

const FlatFieldValues = Type.Record(
  Type.String(),
  Type.Union([ContentValue(), Type.Number(), Type.Boolean(), Type.Null()]),
  {
    description: 'liquid_variable → value; fields left out use their defaults',
  },
);

const SimpleInstance = Type.Object(
  { component_id: Id(), field_values: Type.Optional(FlatFieldValues) },
  { additionalProperties: false },
);

const SimpleContent = Type.Object(
  {
    subject: Type.Optional(Text()),
    preheader: Type.Optional(Text()),
    container_component_instance: SimpleInstance,
    component_instances: Type.Array(SimpleInstance, {
      maxItems: maxComponentInstances,
      description: `At most ${maxComponentInstances} instances (see Limits)`,
    }),
  },
  { additionalProperties: false, description: 'The simple shape: component ids and flat field values' },
);

const EmailContent = Type.Object(
  {
    subject: BranchedText,
    preheader: BranchedText,
    container_component_instance: BranchedInstance,
    component_instances: Type.Array(BranchedInstance, {
      maxItems: maxComponentInstances,
      description: `At most ${maxComponentInstances} instances (see Limits)`,
    }),
  },
  { additionalProperties: false, description: 'The email content shape: values by branch and locale' },
);

export const RenderRequest = RequestBody(
  {
    email_design_system_id: Id(),
    brand_profile_id: Type.Optional(Id({ description: 'Render as this brand of the design system' })),
    locale: Type.Optional(
      Type.String({ pattern: '^[a-z]{2}-[A-Z]{2}$', maxLength: 5, default: 'en-US', examples: ['en-US'] }),
    ),
    content: Type.Optional(SimpleContent),
    email_content: Type.Optional(EmailContent),
    dynamic_content_profile_id: Type.Optional(
      Type.Union([Uuid(), Type.Null()], {
        description:
          'Render as an export: conditionals compiled in this dynamic content profile’s syntax and personalization ' +
          'tags as its values (null: each conditional’s default branch, in no syntax, and default values). Without ' +
          'it, each conditional’s default branch and default values.',
      }),
    ),
    link_tracking_profile_id: Type.Optional(
      Id({ description: 'Apply this link tracking profile to the links' }),
    ),
    inline_css: Type.Optional(
      Type.Boolean({ description: 'Inline the <style> rules into style attributes (media queries kept)' }),
    ),
    plain_text: Type.Optional(
      Type.Boolean({ description: 'Add the plain-text version (`plain_text`) to the answer; default false' }),
    ),
  },
  'Send `content` (simple) or `email_content` (by branch and locale), not both',
);

export const RenderOutput = Type.Object(
  {
    html: Type.String(),
    subject: Type.String(),
    preheader: Type.String(),
    plain_text: Type.Optional(Type.String({ description: 'Only when the request asked for it' })),
    created_at: Timestamp,
  },
  { $id: 'RenderOutput' },
);

export const RenderParams = WorkspaceIdParams;
