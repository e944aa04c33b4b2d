// Types of services.mjs, for the tests that import it.
export interface StackService {
  name: string;
  title: string;
  entry: string;
  portVariable: string;
  defaultPort: number;
  hostVariable: string;
  readyPath: string;
  openapiPath?: string;
  docsPath?: string;
  readme: string;
  env:
    | Record<string, string>
    | ((
        env: Record<string, string | undefined>,
        urls: Record<string, string>,
        port: number,
      ) => Promise<Record<string, string>> | Record<string, string>);
  after?: string[];
  details(env: Record<string, string | undefined>): string[];
  tryCommand(url: string, env: Record<string, string | undefined>): string | null;
}
export const services: StackService[];
