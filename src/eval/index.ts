// Known-question evaluation: question files, the retriever seam, the runner with its
// stored runs and regression comparison, and the terminal rendering.

export { configFingerprint, type EvalConfig, evalConfig } from './fingerprint.js';
export { formatEvalReport } from './format.js';
export {
  loadQuestionFile,
  parseQuestions,
  type Question,
  type QuestionSet,
  questionSchema,
} from './questions.js';
export { keywordRetriever, type Retrieved, type RetrieveOptions, type Retriever } from './retriever.js';
export {
  compareRuns,
  type EvalOptions,
  type EvalReport,
  type EvalSummary,
  evalExitCode,
  MUST_NOT_FIND_DEPTH,
  type QuestionResult,
  type QuestionStatus,
  type Regression,
  runEval,
  SCORED_DEPTH,
} from './run.js';
export { ensureEvalTables, previousRun, type StoredOutcome, type StoredRun } from './store.js';
