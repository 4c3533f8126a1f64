import type { components } from '@letterset/api-client';
import { Badge, Loader, Tooltip } from '@mantine/core';

type EmailSummary = components['schemas']['EmailSummary'];

/**
 * Where an email's AI generation stands, beside its status in the lists: being written, or ended
 * with something the AI could not do (nothing written, or values left at their defaults). An email
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
  if (email.ai_generation_status === 'done' && email.ai_generation_error) {
    // The first line says what happened; the full list is in the editor's banner.
    const [summary] = email.ai_generation_error.split('\n');
    return (
      <Tooltip label={summary} multiline maw={360} withArrow>
        <Badge color="orange" variant="light" tabIndex={0}>
          AI problems
        </Badge>
      </Tooltip>
    );
  }
  return null;
}
