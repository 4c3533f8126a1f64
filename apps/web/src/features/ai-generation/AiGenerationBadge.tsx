import type { components } from '@letterset/api-client';
import { Badge, Loader, Tooltip } from '@mantine/core';

type EmailSummary = components['schemas']['EmailSummary'];

/**
 * Where an email's AI generation stands, beside its status in the lists: being written, or failed
 * (nothing written, or values left at their defaults), the reason's first line on hover. An email
 * without one of these is plain, whatever wrote it.
 */
export function AiGenerationBadge({
  email,
}: {
  email: Pick<EmailSummary, 'ai_generation_status' | 'ai_generation_error'>;
}) {
  if (email.ai_generation_status === 'generating') {
    return (
      <Badge color="grape" variant="light" leftSection={<Loader size={10} color="grape" />}>
        AI writing
      </Badge>
    );
  }
  if (email.ai_generation_status === 'failed') {
    // The first line says what happened; the full list is in the editor's banner, with Try again.
    const [summary] = (email.ai_generation_error ?? 'The AI could not write this email.').split('\n');
    return (
      <Tooltip label={summary} multiline maw={360} withArrow>
        <Badge color="red" variant="light" tabIndex={0}>
          AI failed
        </Badge>
      </Tooltip>
    );
  }
  return null;
}
