// oidc-provider ships no type declarations; these are the parts the tests use.
declare module "oidc-provider" {
  interface Grant { addOIDCScope(scope: string): void; save(): Promise<string> }
  export interface OidcProvider {
    callback(): (req: unknown, res: unknown) => void;
    interactionDetails(req: unknown, res: unknown): Promise<{ uid: string; params: Record<string, unknown>; session?: { accountId: string } }>;
    interactionFinished(req: unknown, res: unknown, result: Record<string, unknown>, options?: Record<string, unknown>): Promise<void>;
    Grant: new (init: { accountId: string; clientId: string }) => Grant;
  }
  const Provider: new (issuer: string, configuration: Record<string, unknown>) => OidcProvider;
  export default Provider;
}
