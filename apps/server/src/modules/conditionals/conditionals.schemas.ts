import { conditionJoiners, conditionValueTypes } from '@letterset/core';
import { Type } from 'typebox';
import { Id, Identifier, IdParams, Label, RequestBody, Text, Timestamp } from '../../http/schemas.ts';

const branchKeyPattern = '^[A-Za-z_][A-Za-z0-9_]*$';
const BranchKey = Identifier({
  pattern: branchKeyPattern,
  description: 'The branch’s identifier within the conditional; content is stored under it',
  examples: ['gold_membership'],
});

const Branch = Type.Object({ key: BranchKey, label: Label() }, { additionalProperties: false });

const defaultBranchDescription =
  'The branch every reader gets when the email is exported without a dynamic content profile ' +
  '(and that previews show until another branch is chosen): one of the branch keys. Null: the last ' +
  'branch, the “everyone else” branch by convention. An export for a profile holds every branch, ' +
  'each wrapped in the profile’s syntax.';

// OpenAPI 3.0 allows no `examples` inside anyOf, so the key here is the plain pattern.
const DefaultBranchKey = Type.Union([Identifier({ pattern: branchKeyPattern }), Type.Null()], {
  description: defaultBranchDescription,
});

export const ConditionalSyntax = Type.Object(
  {
    closing: Text({ description: 'Emitted after the last branch, e.g. {% endif %}' }),
    branch_values: Type.Record(Type.String(), Text(), {
      description:
        'Branch key → the opening syntax of that branch (one per branch key), e.g. {% elsif tier == "silver" %}',
    }),
  },
  { additionalProperties: false },
);

const PickerCondition = Type.Object(
  {
    attribute: Label({ description: 'The recipient attribute, e.g. tier' }),
    type: Type.Enum([...conditionValueTypes]),
    operator: Identifier({ description: 'An operator key of the preset schema, e.g. equals' }),
    value: Type.Optional(Type.Union([Text(), Type.Number(), Type.Boolean(), Type.Null()])),
  },
  { additionalProperties: false },
);

export const PickerState = Type.Object(
  {
    include_else_branch: Type.Boolean({
      description: 'The last branch becomes the else branch (no conditions)',
    }),
    branches: Type.Record(
      Type.String(),
      Type.Object(
        {
          conditions: Type.Array(PickerCondition, { maxItems: 20 }),
          joiner: Type.Optional(Type.Enum([...conditionJoiners])),
        },
        { additionalProperties: false },
      ),
      { description: 'Branch key → its conditions, combined with the joiner (default and)' },
    ),
  },
  { additionalProperties: false },
);

const PickerValue = Type.Object(
  { uses_ui_picker: Type.Literal(true), ui_picker_state: PickerState },
  {
    additionalProperties: false,
    description: 'Built with the preset picker; compiled by the profile’s preset',
  },
);

const ProfileValues = Type.Record(Type.String(), Type.Union([ConditionalSyntax, PickerValue]), {
  description:
    'Dynamic content profile id → that profile’s syntax, written by hand or built with the preset picker',
});

export const ConditionalProfileSyntax = Type.Object(
  {
    closing: Type.String(),
    branch_values: Type.Record(Type.String(), Type.String()),
    uses_ui_picker: Type.Boolean(),
    ui_picker_state: Type.Optional(PickerState),
  },
  { description: 'A profile’s syntax; picker states come compiled' },
);

export const Conditional = Type.Object(
  {
    id: Type.Integer(),
    label: Type.String(),
    branches: Type.Array(Branch),
    default_syntax: ConditionalSyntax,
    dynamic_content_profile_syntaxes: Type.Record(Type.String(), ConditionalProfileSyntax),
    can_be_used_in_subject_and_preheader: Type.Boolean(),
    default_branch_key: Type.Union([Type.String(), Type.Null()], { description: defaultBranchDescription }),
    organization_id: Type.Integer(),
    created_at: Timestamp,
    updated_at: Timestamp,
  },
  { $id: 'Conditional' },
);

const Branches = Type.Array(Branch, { minItems: 1, maxItems: 50 });

export const CreateConditionalBody = RequestBody({
  label: Label(),
  branches: Branches,
  default_value: ConditionalSyntax,
  dynamic_content_profile_values: Type.Optional(ProfileValues),
  can_be_used_in_subject_and_preheader: Type.Optional(Type.Boolean()),
  default_branch_key: Type.Optional(DefaultBranchKey),
});

export const UpdateConditionalBody = RequestBody({
  label: Type.Optional(Label()),
  branches: Type.Optional(Branches),
  default_value: Type.Optional(ConditionalSyntax),
  dynamic_content_profile_values: Type.Optional(ProfileValues),
  can_be_used_in_subject_and_preheader: Type.Optional(Type.Boolean()),
  default_branch_key: Type.Optional(DefaultBranchKey),
});

export const ConditionalParams = Type.Object({ workspace_id: Id(), ...IdParams.properties });
