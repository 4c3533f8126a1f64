import type { components } from '@letterset/api-client';
import { Badge, Loader, Tooltip } from '@mantine/core';

type EmailSummary = components['schemas']['EmailSummary'];

/**
 * Where an email's or a design system's AI generation stands, beside it in the lists: under way,
 * or failed (nothing written, or parts left out or at their defaults), the reason's first line on
 * hover. One without either is plain, whatever wrote it.
 */
export function AiGenerationBadge({
  generation,
  underWayLabel = 'AI writing',
}: {
  generation: Pick<EmailSummary, 'ai_generation_status' | 'ai_generation_error'>;
  underWayLabel?: string;
}) {
  if (generation.ai_generation_status === 'generating') {
    return (
      <Badge color="grape" variant="light" leftSection={<Loader size={10} color="grape" />}>
        {underWayLabel}
      </Badge>
    );
  }
  if (generation.ai_generation_status === 'failed') {
    // The first line says what happened; the full list is on the email's or system's own page.
    const [summary] = (generation.ai_generation_error ?? 'The AI could not finish.').split('\n');
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
