// oidc-provider (8.x) ships no type declarations; these are the parts authsvc and its tests use.
declare module "oidc-provider" {
  import type { IncomingMessage, ServerResponse } from "node:http";

  export interface Grant {
    jti: string;
    accountId: string;
    clientId: string;
    addOIDCScope(scope: string): void;
    addOIDCClaims(claims: string[]): void;
    addResourceScope(resource: string, scope: string): void;
    getOIDCScope(): string;
    getResourceScopeFiltered(resource: string, scopes: readonly string[]): string;
    save(): Promise<string>;
    destroy(): Promise<void>;
  }
  export interface GrantStatic {
    new (init: { accountId: string; clientId: string }): Grant;
    find(id: string): Promise<Grant | undefined>;
  }
  export interface ClientInstance {
    clientId: string;
    clientName?: string;
    redirectUris: string[];
    applicationType: string;
    tokenEndpointAuthMethod: string;
    clientSecret?: string;
    metadata(): Record<string, unknown>;
  }
  export interface Interaction {
    uid: string;
    params: Record<string, unknown>;
    prompt: { name: string; reasons: string[]; details: Record<string, unknown> };
    session?: { accountId: string };
    grantId?: string;
    lastSubmission?: Record<string, unknown>;
  }
  type NodeReq = IncomingMessage | unknown;
  type NodeRes = ServerResponse | unknown;
  export interface OidcProvider {
    issuer: string;
    proxy: boolean;
    callback(): (req: NodeReq, res: NodeRes) => void;
    interactionDetails(req: NodeReq, res: NodeRes): Promise<Interaction>;
    interactionFinished(req: NodeReq, res: NodeRes, result: Record<string, unknown>, options?: Record<string, unknown>): Promise<void>;
    interactionResult(req: NodeReq, res: NodeRes, result: Record<string, unknown>, options?: Record<string, unknown>): Promise<string>;
    Grant: GrantStatic;
    Client: { new (...args: unknown[]): ClientInstance; find(id: string): Promise<ClientInstance | undefined>; prototype: Record<string, unknown> };
    on(event: string, listener: (...args: any[]) => void): this;
    use(middleware: (ctx: any, next: () => Promise<void>) => Promise<void>): this;
  }
  export class Check {
    constructor(reason: string, description: string, check: (ctx: any) => unknown);
    static readonly REQUEST_PROMPT: boolean;
    static readonly NO_NEED_TO_PROMPT: boolean;
  }
  export interface Prompt { name: string; checks: { add(check: Check, index?: number): void } }
  export const interactionPolicy: {
    Check: typeof Check;
    base(): { get(name: string): Prompt | undefined } & Prompt[];
  };
  export const errors: {
    InvalidTarget: new (description?: string) => Error;
    InvalidRequest: new (description?: string) => Error;
    InvalidClientMetadata: new (description?: string) => Error;
    AccessDenied: new (description?: string) => Error;
    InvalidClient: new (description?: string, detail?: string) => Error;
    CustomOIDCProviderError: new (error: string, description?: string) => Error & { status: number; statusCode: number };
  };
  const Provider: new (issuer: string, configuration: Record<string, unknown>) => OidcProvider;
  export { Provider };
  export default Provider;
}
