/** A staging pipeline (StagingPipeline in the spec): an ordered list of stager jobs. staging/pipeline.ts keeps them. */
export interface StagingPipeline {
  uuid: string;
  fqn: string;
  name: string;
  stagers: { uuid: string }[];
  /** Insertion order among pipelines (the spec's `auto_id`). */
  auto_id: number;
  version_id: number;
  created_at: string;
  updated_at: string;
  created_by: string;
  updated_by: string;
}
