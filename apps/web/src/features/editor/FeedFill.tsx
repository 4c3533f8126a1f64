import { type BrandedComponent, feedFieldValues, setFieldValues } from '@letterset/core';
import { Alert, Button, Stack, Text, TextInput } from '@mantine/core';
import { useMutation, useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { errorMessage } from '../../shared/api-error.ts';
import { dispatchCommand, useEditorSession } from './EditorContext.tsx';
import { feedQuery, runFeed } from './editor-api.ts';

/** Whether the inspector offers a feed fill: the component has a feed and fields that take from it. */
export function fillsFromFeed(
  component: BrandedComponent,
): component is BrandedComponent & { feed_id: number } {
  return (
    typeof component.feed_id === 'number' &&
    component.field_definitions.some((definition) => Boolean(definition.feed_field_name))
  );
}

/**
 * Runs the component's feed with the parameters typed here and puts the feed fields' values into
 * the fields that name them, in the branch and locale being edited, as one undo step.
 */
export function FeedFill({
  component,
  target,
}: {
  component: BrandedComponent & { feed_id: number };
  target: { instanceId: string; branch: string; locale: string };
}) {
  const { editor, workspaceId } = useEditorSession();
  const feed = useQuery(feedQuery(workspaceId, component.feed_id));
  const [parameters, setParameters] = useState<Record<string, string>>({});
  const [outcome, setOutcome] = useState<{ ok: boolean; message: string } | null>(null);
  const run = useMutation({
    mutationFn: () => runFeed(workspaceId, component.feed_id, parameters),
    onSuccess: (result) => {
      if (result.error) {
        setOutcome({ ok: false, message: `The feed could not be used: ${result.error}` });
        return;
      }
      const values = feedFieldValues(component.field_definitions, result.extracted_data);
      const filled = Object.keys(values).length;
      if (filled === 0) {
        setOutcome({ ok: false, message: 'The feed answered, but none of the fields it fills had a value.' });
        return;
      }
      dispatchCommand(editor, setFieldValues(target, values));
      setOutcome({
        ok: true,
        message: `Filled ${filled} ${filled === 1 ? 'field' : 'fields'} from the feed.`,
      });
    },
    onError: (error) => setOutcome({ ok: false, message: errorMessage(error) }),
  });

  if (feed.isError) {
    return (
      <Alert color="red" title="Fill from feed">
        The component’s feed could not be loaded: {errorMessage(feed.error)}
      </Alert>
    );
  }
  return (
    <Stack gap="xs" aria-label="Fill from feed" role="group">
      <Text size="sm" fw={500}>
        Fill from feed{feed.data ? `: ${feed.data.name}` : ''}
      </Text>
      {feed.data?.parameters.map((parameter) => (
        <TextInput
          key={parameter.name}
          size="xs"
          label={parameter.label}
          value={parameters[parameter.name] ?? ''}
          onChange={(event) => {
            const value = event.currentTarget.value;
            setParameters((current) => ({ ...current, [parameter.name]: value }));
          }}
        />
      ))}
      <Button
        size="xs"
        variant="light"
        loading={run.isPending}
        disabled={!feed.data}
        onClick={() => {
          setOutcome(null);
          run.mutate();
        }}
      >
        Fill from feed
      </Button>
      {outcome && (
        <Text size="xs" c={outcome.ok ? 'teal' : 'red'} role="status">
          {outcome.message}
        </Text>
      )}
    </Stack>
  );
}
