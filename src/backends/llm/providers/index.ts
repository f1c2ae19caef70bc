/** Builds the provider a role names, with its key from the environment (never from a file). */
import { BackendError, InputError, UsageError } from '../../../core/errors.js';
import type { Env } from '../../../config/paths.js';
import type { BackendName, Config } from '../../../config/schema.js';
import type { ChatProvider, ChatReply, ChatRole } from '../chat.js';
import { DEFAULT_MODELS, type RealBackendName } from '../default-models.js';
import { AnthropicProvider } from './anthropic.js';
import { ClaudeCodeProvider } from './claude-code.js';
import { CodexProvider } from './codex.js';
import { OpenAiProvider } from './openai.js';

const DEFAULT_KEY_ENV: Partial<Record<RealBackendName, string>> = {
  openai: 'OPENAI_API_KEY',
  'azure-openai': 'AZURE_OPENAI_API_KEY',
  anthropic: 'ANTHROPIC_API_KEY',
};

export interface RoleSetup {
  backend: BackendName;
  model: string;
  baseUrl: string;
}

/** Which backend, model and base URL a role uses (role keys override `backend`/`model`/`base_url`). */
export function roleSetup(config: Config, role: ChatRole): RoleSetup {
  const backend = (role === 'target' ? config.target_backend : config.optimizer_backend) || config.backend;
  const model = (role === 'target' ? config.target_model : config.optimizer_model) || config.model;
  const baseUrl = (role === 'target' ? config.target_base_url : config.optimizer_base_url) || config.base_url;
  return { backend, model: model || (backend === 'mock' ? '' : DEFAULT_MODELS[backend]), baseUrl };
}

const keyVariable = (name: RealBackendName, config: Config): string =>
  config.api_key_env || DEFAULT_KEY_ENV[name] || '';

function apiKey(name: RealBackendName, config: Config, env: Env, baseUrl: string): string {
  const variable = keyVariable(name, config);
  const key = env[variable];
  if (key && key.trim() !== '') return key.trim();
  // Local OpenAI-compatible servers (Ollama, vLLM) often need no key at all.
  if (name === 'openai' && baseUrl) return 'no-key';
  throw new BackendError(
    `the ${name} backend needs an API key in the environment variable ${variable}, which is not set (or set api_key_env to the variable that holds it)`,
  );
}

/**
 * A provider whose key is missing, for a dry-run's plan: nothing is sent, so the key is not needed
 * unless a request is made after all, which then fails as a missing key always does.
 */
class KeylessProvider implements ChatProvider {
  readonly kind = 'api' as const;
  readonly name: string;
  readonly model: string;
  private readonly missing: BackendError;
  constructor(name: string, model: string, missing: BackendError) {
    this.name = name;
    this.model = model;
    this.missing = missing;
  }
  send(): Promise<ChatReply> {
    return Promise.reject(this.missing);
  }
}

export interface ProviderOptions {
  /** Build the provider even without its API key; the first request reports the missing key. */
  deferMissingKey?: boolean;
}

export function createProvider(
  setup: RoleSetup,
  config: Config,
  env: Env,
  opts: ProviderOptions = {},
): ChatProvider {
  try {
    return createKeyedProvider(setup, config, env);
  } catch (err) {
    if (!(opts.deferMissingKey && err instanceof BackendError)) throw err;
    return new KeylessProvider(setup.backend, setup.model, err);
  }
}

function createKeyedProvider(setup: RoleSetup, config: Config, env: Env): ChatProvider {
  const name = setup.backend;
  const timeoutMs = config.request_timeout_s * 1000;
  const cliTimeoutMs = config.cli_timeout_s * 1000;
  switch (name) {
    case 'openai':
      return new OpenAiProvider({
        model: setup.model,
        apiKey: apiKey(name, config, env, setup.baseUrl),
        keyVariable: keyVariable(name, config),
        baseUrl: setup.baseUrl,
        timeoutMs,
      });
    case 'azure-openai':
      if (!setup.baseUrl || !setup.model) {
        throw new InputError(
          'azure-openai needs base_url (your resource endpoint, e.g. https://NAME.openai.azure.com) and model (the deployment name)',
          'bad_config',
        );
      }
      return new OpenAiProvider({
        model: setup.model,
        apiKey: apiKey(name, config, env, setup.baseUrl),
        keyVariable: keyVariable(name, config),
        baseUrl: setup.baseUrl,
        timeoutMs,
        azure: { apiVersion: config.azure_api_version },
      });
    case 'anthropic':
      return new AnthropicProvider({
        model: setup.model,
        apiKey: apiKey(name, config, env, setup.baseUrl),
        keyVariable: keyVariable(name, config),
        baseUrl: setup.baseUrl,
        timeoutMs,
      });
    case 'claude-code':
      return new ClaudeCodeProvider({
        binary: config.claude_path,
        model: setup.model,
        env,
        timeoutMs: cliTimeoutMs,
      });
    case 'codex':
      return new CodexProvider({
        binary: config.codex_path,
        model: setup.model,
        env,
        timeoutMs: cliTimeoutMs,
      });
    case 'handoff':
      // The night builds it around its queue (src/backends/factory.ts); nothing else can answer.
      throw new UsageError(
        'the handoff backend pauses a night until its requests are answered, which only `skillopt-sleep run --backend handoff` does',
      );
    case 'mock':
      throw new Error('the mock backend has no chat provider');
    default: {
      const never: never = name;
      return never;
    }
  }
}
