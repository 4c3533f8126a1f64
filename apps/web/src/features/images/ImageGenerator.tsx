import {
  Alert,
  Button,
  Checkbox,
  Group,
  Loader,
  Paper,
  SegmentedControl,
  Stack,
  Text,
  Textarea,
} from '@mantine/core';
import { useForm } from '@mantine/form';
import { IconSparkles } from '@tabler/icons-react';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { ApiError, errorMessage } from '../../shared/api-error.ts';
import { type AiSettings, useAiSettings } from '../ai-settings/ai-settings-api.ts';
import {
  type GeneratedImageSize,
  generatedImageSizes,
  generateImage,
  type Image,
  imagesKey,
  maxImagePromptLength,
} from './images-api.ts';
import type { ImageProportion } from './use-image-proportion.ts';

/** Whether the organization's provider can make images, as far as its settings tell. */
export function imageGenerationReadiness(settings: AiSettings): 'ready' | 'no_provider' | 'no_image_model' {
  if (!settings.configured) return 'no_provider';
  const effective = settings.source === 'organization' ? settings : settings.environment_default;
  if (!effective || effective.provider === 'anthropic' || !effective.image_model) return 'no_image_model';
  return 'ready';
}

/**
 * "Generate image": a prompt and a size, sent to the organization's AI provider; the image lands
 * in the library like an upload. Where AI is not set up, a short notice stands in its place.
 */
export function ImageGenerator({
  workspaceId,
  onGenerated,
  proportion = null,
}: {
  workspaceId: number;
  /** Called with the new image while this is still on screen. */
  onGenerated?: (image: Image) => void;
  /** The proportion of the image field it is for, when known: offered instead of a size. */
  proportion?: ImageProportion | null;
}) {
  const settings = useAiSettings();
  const [opened, setOpened] = useState(false);
  // Until the settings arrive nothing shows; if they cannot be read, the server has the last word.
  if (settings.isPending) return null;
  const readiness = settings.data ? imageGenerationReadiness(settings.data) : 'ready';
  if (readiness === 'no_provider') {
    return (
      <Text size="sm" c="dimmed" data-testid="image-generation-notice">
        AI is not set up for this organization, so images cannot be generated here: an Admin can set up a
        provider in Settings › AI.
      </Text>
    );
  }
  if (readiness === 'no_image_model') {
    return (
      <Text size="sm" c="dimmed" data-testid="image-generation-notice">
        The organization’s AI provider has no image model, so images cannot be generated here: an Admin can
        choose an OpenAI or OpenAI-compatible provider with an image model in Settings › AI.
      </Text>
    );
  }
  if (!opened) {
    return (
      <Group>
        <Button variant="light" leftSection={<IconSparkles size={16} />} onClick={() => setOpened(true)}>
          Generate image
        </Button>
      </Group>
    );
  }
  return (
    <GenerateImageForm
      workspaceId={workspaceId}
      onGenerated={onGenerated}
      onClose={() => setOpened(false)}
      proportion={proportion}
    />
  );
}

interface GenerateImageValues {
  prompt: string;
  size: GeneratedImageSize;
  /** Cropped to the field's proportion instead of one of the sizes. */
  matchField: boolean;
}

function GenerateImageForm({
  workspaceId,
  onGenerated,
  onClose,
  proportion,
}: {
  workspaceId: number;
  onGenerated?: (image: Image) => void;
  onClose: () => void;
  proportion: ImageProportion | null;
}) {
  const queryClient = useQueryClient();
  const [generated, setGenerated] = useState<Image | null>(null);
  const form = useForm<GenerateImageValues>({
    initialValues: { prompt: '', size: '1024x1024', matchField: true },
    validate: { prompt: (value) => (value.trim() ? null : 'Describe the image to generate') },
  });
  const generate = useMutation({
    mutationFn: (values: GenerateImageValues) =>
      generateImage(
        workspaceId,
        proportion && values.matchField
          ? { prompt: values.prompt.trim(), aspect_ratio: proportion }
          : { prompt: values.prompt.trim(), size: values.size },
      ),
    // Even when the form is gone by the time the image arrives, the library and the usage show it.
    onSuccess: () =>
      Promise.all([
        queryClient.invalidateQueries({ queryKey: imagesKey(workspaceId) }),
        queryClient.invalidateQueries({ queryKey: ['ai-usage'] }),
      ]),
  });
  const failure = generate.error;
  // A 422 about the prompt belongs on the prompt; anything else (no provider, the provider's refusal) above.
  const promptError =
    failure instanceof ApiError && failure.status === 422
      ? failure.fieldErrors.prompt?.join('; ')
      : undefined;

  return (
    <Paper withBorder p="md" radius="md">
      <form
        aria-label="Generate an image"
        onSubmit={form.onSubmit((values) => {
          setGenerated(null);
          generate.mutate(values, {
            onSuccess: (image) => {
              setGenerated(image);
              onGenerated?.(image);
            },
          });
        })}
      >
        <Stack gap="sm">
          <Textarea
            label="Describe the image"
            description="Subject, setting, style and light. The description is kept with the image in the library."
            placeholder="A red fox asleep in autumn leaves, soft morning light, photographic"
            autosize
            minRows={3}
            maxRows={8}
            maxLength={maxImagePromptLength}
            data-autofocus
            disabled={generate.isPending}
            {...form.getInputProps('prompt')}
            error={form.errors.prompt ?? promptError}
          />
          {proportion && (
            <Checkbox
              label={`In the field’s proportion (${proportion.width} × ${proportion.height})`}
              description="The middle of the generated image is kept, cut to the shape of the image the field shows now"
              disabled={generate.isPending}
              {...form.getInputProps('matchField', { type: 'checkbox' })}
            />
          )}
          {!(proportion && form.values.matchField) && (
            <Stack gap={4}>
              <Text size="sm" fw={500} id="generated-image-size-label">
                Size
              </Text>
              <SegmentedControl
                aria-labelledby="generated-image-size-label"
                data={generatedImageSizes}
                disabled={generate.isPending}
                {...form.getInputProps('size')}
              />
            </Stack>
          )}
          {failure && !promptError && !generate.isPending && (
            <Alert color="red" role="alert" title="The image was not generated">
              {errorMessage(failure)}
            </Alert>
          )}
          {generate.isPending && (
            <Group gap="xs" role="status">
              <Loader size="xs" />
              <Text size="sm" c="dimmed">
                Generating the image… this takes several seconds, sometimes up to a minute.
              </Text>
            </Group>
          )}
          {generated && !generate.isPending && (
            <Text size="sm" c="teal" role="status">
              “{generated.name}” is in the library.
            </Text>
          )}
          <Group justify="flex-end">
            <Button variant="default" onClick={onClose} disabled={generate.isPending}>
              Close
            </Button>
            <Button type="submit" leftSection={<IconSparkles size={16} />} loading={generate.isPending}>
              Generate
            </Button>
          </Group>
        </Stack>
      </form>
    </Paper>
  );
}
