import { Type } from 'typebox';
import { commentAuthorTypes } from '../../db/schema.ts';
import { PaginationQuery } from '../../http/pagination.ts';
import { Id, Identifier, RequestBody, ref, Timestamp, Uuid, WorkspaceIdParams } from '../../http/schemas.ts';
import { Locale } from '../email-content/email-content.schemas.ts';
import { UserReference } from '../users/users.schemas.ts';

/** The longest comment body, in characters, once trimmed. */
export const commentBodyMaxLength = 10_000;

/**
 * How far a pin may sit from the preview's horizontal centre, and below the top of what it is
 * pinned to, in CSS pixels: well beyond any email's width and length.
 */
export const pinBounds = { centerOffsetX: 5_000, y: 100_000 } as const;

const PinCoordinates = Type.Object(
  {
    center_offset_x_px: Type.Number({
      minimum: -pinBounds.centerOffsetX,
      maximum: pinBounds.centerOffsetX,
      description: 'Horizontal distance from the preview’s centre line, in CSS pixels (negative: left of it)',
    }),
    y: Type.Number({
      minimum: 0,
      maximum: pinBounds.y,
      description:
        'Distance below the top of the pinned component instance, in CSS pixels (of the email when the pin is on no instance)',
    }),
  },
  { additionalProperties: false },
);

export const PinData = Type.Object(
  {
    id: Uuid({ description: 'Assigned by the server' }),
    component_instance_id: Type.Union([Uuid(), Type.Null()], {
      description: 'The component instance the pin is on; null: on the email itself',
    }),
    branch_key: Type.Union([Identifier(), Type.Null()], {
      description: 'The conditional branch on screen when the pin was placed (null: no conditional)',
    }),
    coordinates: PinCoordinates,
  },
  { $id: 'CommentPinData', description: 'Where on the preview a comment is pinned' },
);

const PinDataInput = RequestBody(
  {
    component_instance_id: Type.Union([Uuid(), Type.Null()], {
      description: 'An instance of the email’s content (the container included), or null to pin on the email',
    }),
    branch_key: Type.Optional(Type.Union([Identifier(), Type.Null()])),
    coordinates: PinCoordinates,
  },
  'Where to pin a thread’s first comment; the server gives the pin its id',
);

const AiReviewerAuthor = Type.Object(
  { id: Type.Integer(), name: Type.String() },
  { description: 'The AI reviewer that wrote the comment' },
);

export const EmailComment = Type.Object(
  {
    id: Type.Integer(),
    email_id: Type.Integer(),
    locale: ref(Locale),
    author_type: Type.Enum([...commentAuthorTypes]),
    author: Type.Union([ref(UserReference), AiReviewerAuthor, Type.Null()], {
      description:
        'A user reference (author_type User) or {id, name} (AiReviewer); null once the author is gone',
    }),
    parent_id: Type.Union([Type.Integer(), Type.Null()], {
      description: 'The thread’s first comment, for a reply; null for a first comment',
    }),
    pin_data: Type.Union([ref(PinData), Type.Null()]),
    pin_detached: Type.Boolean({
      description:
        'true when the pinned component instance is no longer in the email’s content; the pin is kept',
    }),
    body: Type.String({
      description: 'The text; people are mentioned as `@[First Last](user:ID)` tokens',
    }),
    mentions: Type.Array(ref(UserReference), { description: 'The people the body mentions' }),
    resolved: Type.Boolean({ description: 'Whether the thread is resolved (the same on all its comments)' }),
    resolver_id: Type.Union([Type.Integer(), Type.Null()]),
    resolver: Type.Union([ref(UserReference), Type.Null()]),
    created_at: Timestamp,
    updated_at: Timestamp,
  },
  { $id: 'EmailComment', description: 'A comment on one locale of an email, or a reply to one' },
);

export const EmailCommentsParams = Type.Object({
  ...WorkspaceIdParams.properties,
  email_id: Id(),
});

export const EmailCommentParams = Type.Object({ ...EmailCommentsParams.properties, id: Id() });

export const ListEmailCommentsQuery = Type.Object({
  locale: ref(Locale),
  resolved: Type.Optional(
    Type.Boolean({ description: 'true: only resolved threads; false: only open ones; absent: both' }),
  ),
  ...PaginationQuery.properties,
});

/** Limits the raw body before trimming: a little room for surrounding whitespace. */
const BodyInput = Type.String({
  maxLength: commentBodyMaxLength + 1_000,
  description: `At most ${commentBodyMaxLength.toLocaleString('en-US')} characters once trimmed. Mention people as \`@[First Last](user:ID)\`.`,
});

export const CreateEmailCommentBody = RequestBody({
  locale: ref(Locale),
  body: BodyInput,
  parent_id: Type.Optional(
    Type.Union([Id(), Type.Null()], { description: 'A thread’s first comment, to reply to it' }),
  ),
  pin_data: Type.Optional(Type.Union([PinDataInput, Type.Null()])),
});

export const UpdateEmailCommentBody = RequestBody({ body: BodyInput });
