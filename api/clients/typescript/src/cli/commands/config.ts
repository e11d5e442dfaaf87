/** `config set-key`, `config set-url`, `config show`, `config path`. */
import { configPath, maskKey, readConfig, writeConfig } from '../config.js';
import { EXIT, UsageError, type CliContext, type ExitCode } from '../context.js';

export function configSetKey(context: CliContext, key: string): ExitCode {
  if (!key.startsWith('s224_')) throw new UsageError('an API key starts with s224_');
  const file = configPath(context.io.env);
  writeConfig({ api_key: key }, file);
  context.out(`saved the key ${maskKey(key)} in ${file} (mode 0600)`);
  return EXIT.ok;
}

export function configSetUrl(context: CliContext, url: string): ExitCode {
  try {
    new URL(url);
  } catch {
    throw new UsageError(`not a URL: ${url}`);
  }
  const file = configPath(context.io.env);
  writeConfig({ base_url: url }, file);
  context.out(`saved the address ${url} in ${file}`);
  return EXIT.ok;
}

export function configShow(context: CliContext): ExitCode {
  const stored = readConfig(configPath(context.io.env));
  const shown = {
    base_url: context.settings.baseUrl,
    api_key: context.settings.apiKey === undefined ? null : maskKey(context.settings.apiKey),
    file: configPath(context.io.env),
    stored: { ...stored, ...(stored.api_key === undefined ? {} : { api_key: maskKey(stored.api_key) }) },
  };
  if (context.json) context.printJson(shown);
  else {
    context.out(`base url: ${shown.base_url}`);
    context.out(`api key: ${shown.api_key ?? '(none)'}`);
    context.out(`config file: ${shown.file}`);
  }
  return EXIT.ok;
}
