/**
 * What each kind of background work is asked to do. Services send jobs by name with these
 * payloads (through `Services['jobs']`), so no service imports a job definition: the job
 * definitions import the services that do the work, never the reverse.
 */
export interface JobPayloads {
  export: { export_id: number };
  'email-generation': {
    email_id: number;
    /** On whose behalf (the person who created or cloned the email). */
    user_id: number;
    /** `compose`: the model chooses the sections; `rewrite`: it rewrites the values of the ones there. */
    mode: 'compose' | 'rewrite';
    feature: 'email_generation' | 'email_clone';
  };
  'ai-review': {
    review_assignment_id: number;
    /** On whose behalf it runs (who asked for the review, or ran it again): usage is theirs. */
    user_id: number;
  };
  'design-system-generation': {
    email_design_system_id: number;
    /** On whose behalf (the person who created the system); usage is recorded for them. */
    user_id: number;
    /** The AI agent whose company, tone and guidelines the design follows, if one was chosen. */
    ai_agent_id: number | null;
  };
  'email-translation': { translation_id: number; locale: string };
}

export type JobName = keyof JobPayloads;

/** The statuses the API shows for background work. */
export type JobStatus = 'in_progress' | 'completed' | 'failed';

export interface JobState {
  id: string;
  status: JobStatus;
  output: unknown;
  attempts: number;
}

/** Sends background work and reads its state; the job queue is one. */
export interface JobSender {
  send<Name extends JobName>(name: Name, payload: JobPayloads[Name]): Promise<string>;
  state(name: JobName, id: string): Promise<JobState | null>;
}
