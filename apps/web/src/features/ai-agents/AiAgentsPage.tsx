import { Modal, Stack, Text, Textarea, TextInput } from '@mantine/core';
import { useForm } from '@mantine/form';
import { notifications } from '@mantine/notifications';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useCan } from '../../app/session.ts';
import { errorMessage } from '../../shared/api-error.ts';
import { CollectionPanel } from '../../shared/CollectionPanel.tsx';
import { confirmDestructive } from '../../shared/confirm.tsx';
import { FormActions, FormProblems } from '../../shared/FormParts.tsx';
import { showApiErrors } from '../../shared/form-errors.ts';
import { PageHeader } from '../../shared/PageHeader.tsx';
import { useWorkspaceId } from '../shell/workspace.ts';
import {
  type AiAgent,
  type AiAgentFields,
  aiAgentKeys,
  aiAgentListQuery,
  brandGuidelinesHref,
  deleteAiAgent,
  removeBrandGuidelines,
  saveAiAgent,
  uploadBrandGuidelines,
  uploadFailure,
} from './ai-agents-api.ts';
import { BrandGuidelinesField } from './BrandGuidelinesField.tsx';

const perPage = 20;
/** The server's limits (422 beyond them); the inputs stop there first. */
const limits = { name: 200, tone: 2_000, prompt: 10_000 };

/** The workspace's AI agents: the company context AI features write with. */
export function AiAgentsPage() {
  const workspaceId = useWorkspaceId();
  const can = useCan();
  const [page, setPage] = useState(1);
  const query = useQuery(aiAgentListQuery(workspaceId, page, perPage));
  return (
    <Stack gap={0}>
      <PageHeader
        title="AI agents"
        breadcrumbs={[{ label: 'Settings', to: '/settings' }, { label: 'AI agents' }]}
      />
      <CollectionPanel
        noun="AI agent"
        description="An AI agent gives AI features your company’s voice: who you are, the tone to write in, the rules to follow and your brand guidelines document. AI features use the agent you choose."
        query={query}
        onPage={setPage}
        queryKey={aiAgentKeys.all(workspaceId)}
        headers={['Name', 'Company', 'Brand guidelines']}
        cells={(agent) => [
          <Text key="name" fw={500}>
            {agent.name ?? 'Unnamed agent'}
          </Text>,
          <Text key="company" size="sm" c={agent.company_name ? undefined : 'dimmed'}>
            {agent.company_name ?? '—'}
          </Text>,
          <DocumentSummary key="document" agent={agent} />,
        ]}
        nameOf={(agent) => agent.name ?? 'Unnamed agent'}
        permissions={{
          create: can('create_ai_agents'),
          update: can('update_ai_agents'),
          delete: can('delete_ai_agents'),
        }}
        renderForm={(agent, close) => (
          <AiAgentForm
            workspaceId={workspaceId}
            agent={agent}
            readOnly={agent ? !can('update_ai_agents') : false}
            onClose={close}
          />
        )}
        deleteItem={(agent) => deleteAiAgent(workspaceId, agent.id)}
        deleteMessage="Its brand guidelines document is deleted with it, and emails that used it no longer have an agent. This cannot be undone."
        emptyHint="Add one with your company’s name, overview, tone and guidelines, and upload your brand guidelines."
      />
    </Stack>
  );
}

function DocumentSummary({ agent }: { agent: AiAgent }) {
  const document = agent.brand_guidelines_document;
  if (!document) {
    return (
      <Text size="sm" c="dimmed">
        None
      </Text>
    );
  }
  return (
    <Stack gap={0}>
      <Text size="sm" lineClamp={1}>
        {agent.brand_guidelines_document_name ?? document.filename}
      </Text>
      <Text size="xs" c="dimmed">
        {document.characters.toLocaleString('en-US')} characters of text
      </Text>
    </Stack>
  );
}

const fieldNames = [
  'name',
  'company_name',
  'company_overview',
  'tone',
  'guidelines',
  'brand_guidelines_document_name',
] as const;
type FormValues = Record<(typeof fieldNames)[number], string>;

function valuesOf(agent: AiAgent | null): FormValues {
  return {
    name: agent?.name ?? '',
    company_name: agent?.company_name ?? '',
    company_overview: agent?.company_overview ?? '',
    tone: agent?.tone ?? '',
    guidelines: agent?.guidelines ?? '',
    brand_guidelines_document_name: agent?.brand_guidelines_document_name ?? '',
  };
}

/** What the form sends: trimmed text, and null for a field left empty (which clears it). */
export function fieldsOf(values: FormValues): AiAgentFields {
  const optional = (value: string) => (value.trim() === '' ? null : value.trim());
  return {
    name: values.name.trim(),
    company_name: optional(values.company_name),
    company_overview: optional(values.company_overview),
    tone: optional(values.tone),
    guidelines: optional(values.guidelines),
    brand_guidelines_document_name: optional(values.brand_guidelines_document_name),
  };
}

export function AiAgentForm({
  workspaceId,
  agent: givenAgent,
  readOnly,
  onClose,
}: {
  workspaceId: number;
  agent: AiAgent | null;
  readOnly: boolean;
  onClose: () => void;
}) {
  const queryClient = useQueryClient();
  // Once a new agent is created it is this form's agent: a document upload that then fails keeps it open.
  const [agent, setAgent] = useState(givenAgent);
  const [problems, setProblems] = useState<string[]>([]);
  const [pendingFile, setPendingFile] = useState<File | null>(null);
  const [uploadProgress, setUploadProgress] = useState<number | null>(null);
  const [documentProblem, setDocumentProblem] = useState<string | null>(null);
  const [removing, setRemoving] = useState(false);
  const form = useForm<FormValues>({
    initialValues: valuesOf(givenAgent),
    validate: { name: (value) => (value.trim() ? null : 'Give the agent a name') },
  });
  const refresh = () => queryClient.invalidateQueries({ queryKey: aiAgentKeys.all(workspaceId) });

  /** Uploads the document to a saved agent; the refusal, if any, shows under the drop zone. */
  const sendDocument = async (target: AiAgent, file: File): Promise<AiAgent | null> => {
    setDocumentProblem(null);
    setUploadProgress(0);
    try {
      const updated = await uploadBrandGuidelines(workspaceId, target.id, file, setUploadProgress);
      setAgent(updated);
      // The server names the document after its file when the agent had no name for it.
      if (!form.getValues().brand_guidelines_document_name.trim()) {
        form.setFieldValue('brand_guidelines_document_name', updated.brand_guidelines_document_name ?? '');
      }
      await refresh();
      return updated;
    } catch (error) {
      setDocumentProblem(uploadFailure(error));
      return null;
    } finally {
      setUploadProgress(null);
    }
  };

  const choose = (file: File) => {
    setDocumentProblem(null);
    if (!agent) {
      setPendingFile(file);
      return;
    }
    void sendDocument(agent, file).then((updated) => {
      if (updated) notifications.show({ color: 'teal', message: `${file.name} was uploaded.` });
    });
  };

  const remove = async () => {
    if (!agent) return;
    const confirmed = await confirmDestructive({
      title: 'Remove the brand guidelines document?',
      message: 'The file, its text and its name are deleted; AI features no longer read it.',
      confirmLabel: 'Remove document',
    });
    if (!confirmed) return;
    setRemoving(true);
    setDocumentProblem(null);
    try {
      await removeBrandGuidelines(workspaceId, agent.id);
      setAgent({ ...agent, brand_guidelines_document: null, brand_guidelines_document_name: null });
      form.setFieldValue('brand_guidelines_document_name', '');
      await refresh();
    } catch (error) {
      setDocumentProblem(errorMessage(error));
    } finally {
      setRemoving(false);
    }
  };

  const save = useMutation({
    mutationFn: (values: FormValues) => saveAiAgent(workspaceId, agent, fieldsOf(values)),
    onSuccess: async (saved) => {
      setProblems([]);
      setAgent(saved);
      await refresh();
      const file = pendingFile;
      if (file) {
        setPendingFile(null);
        if (!(await sendDocument(saved, file))) {
          setProblems([
            `The agent “${saved.name}” was created, but its document was not uploaded: see below, then choose a document again.`,
          ]);
          return;
        }
      }
      notifications.show({ color: 'teal', message: `The AI agent “${saved.name}” was saved.` });
      onClose();
    },
    onError: (error) => setProblems(showApiErrors(form, error, fieldNames)),
  });

  return (
    <Modal opened onClose={onClose} title={agent?.name ?? 'New AI agent'} size="lg">
      <form onSubmit={form.onSubmit((values) => save.mutate(values))} noValidate>
        <Stack>
          <FormProblems problems={problems} />
          <TextInput
            label="Name"
            description="How people pick the agent, e.g. “Acme voice”."
            required
            readOnly={readOnly}
            maxLength={limits.name}
            {...form.getInputProps('name')}
          />
          <TextInput
            label="Company name"
            description="The company the agent writes for and refers to."
            readOnly={readOnly}
            maxLength={limits.name}
            {...form.getInputProps('company_name')}
          />
          <Textarea
            label="Company overview"
            description="What the company does and for whom: the context AI features need."
            readOnly={readOnly}
            autosize
            minRows={3}
            maxRows={10}
            maxLength={limits.prompt}
            {...form.getInputProps('company_overview')}
          />
          <TextInput
            label="Tone"
            description="For example “Professional but friendly”."
            readOnly={readOnly}
            maxLength={limits.tone}
            {...form.getInputProps('tone')}
          />
          <Textarea
            label="Guidelines"
            description="Rules the writing follows, e.g. “Always include a call to action. Avoid jargon.”"
            readOnly={readOnly}
            autosize
            minRows={3}
            maxRows={12}
            maxLength={limits.prompt}
            {...form.getInputProps('guidelines')}
          />
          <BrandGuidelinesField
            stored={agent?.brand_guidelines_document ?? null}
            downloadHref={
              agent?.brand_guidelines_document ? brandGuidelinesHref(workspaceId, agent.id) : null
            }
            pendingFile={pendingFile}
            uploadProgress={uploadProgress}
            problem={documentProblem}
            readOnly={readOnly}
            removing={removing}
            onChoose={choose}
            onRejected={setDocumentProblem}
            onRemove={remove}
            onDiscardPending={() => setPendingFile(null)}
          />
          <TextInput
            label="Document name"
            description="What the brand guidelines document is called; by default its file name."
            readOnly={readOnly}
            maxLength={limits.name}
            {...form.getInputProps('brand_guidelines_document_name')}
          />
          <FormActions
            readOnly={readOnly}
            onCancel={onClose}
            submitLabel={agent ? 'Save agent' : 'Create agent'}
            submitting={save.isPending || uploadProgress !== null}
          />
        </Stack>
      </form>
    </Modal>
  );
}
