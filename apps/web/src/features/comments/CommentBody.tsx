import { Text } from '@mantine/core';
import { parseCommentBody } from './mention-tokens.ts';

/**
 * A comment's text with its mentions as highlighted names. Everything is rendered as text, never
 * as HTML, so a body cannot inject markup.
 */
export function CommentBody({ body }: { body: string }) {
  return (
    <Text size="sm" style={{ whiteSpace: 'pre-wrap', overflowWrap: 'anywhere' }}>
      {parseCommentBody(body).map((segment, index) =>
        segment.kind === 'text' ? (
          // Segments never reorder: their position is their identity.
          // biome-ignore lint/suspicious/noArrayIndexKey: see above
          <span key={index}>{segment.text}</span>
        ) : (
          <Text
            // biome-ignore lint/suspicious/noArrayIndexKey: see above
            key={index}
            span
            inherit
            fw={600}
            c="blue.7"
            bg="blue.0"
            px={2}
            style={{ borderRadius: 4 }}
            data-mention={segment.userId}
          >
            @{segment.name}
          </Text>
        ),
      )}
    </Text>
  );
}
