"use client";

import { type FormEvent, useState } from "react";
import { Alert } from "@/components/ui/alert";
import { Button } from "@/components/ui/button";
import { ConfirmDialog } from "@/components/ui/confirm-dialog";
import { EmptyState } from "@/components/ui/empty-state";
import { Input } from "@/components/ui/input";

export type ApiTokenRow = { tokenId: string; name: string; displayPrefix: string; createdAt: string };

type ErrorBody = { error?: { message?: string } };

const UNREACHABLE = "We could not reach Truss. Check your connection and try again.";

async function errorMessageOf(response: Response): Promise<string> {
  const body = (await response.json().catch(() => ({}))) as ErrorBody;
  return body.error?.message ?? "Something went wrong. Please try again.";
}

/** Create, list and revoke personal API tokens through /api/tokens. A new token is shown once. */
export function ApiTokensPanel({
  initialTokens,
  timezone,
}: {
  initialTokens: ApiTokenRow[];
  /** The creator's time zone: the server and the browser then write the same date. */
  timezone: string;
}) {
  const [tokens, setTokens] = useState(initialTokens);
  const [name, setName] = useState("");
  const [creating, setCreating] = useState(false);
  const [revokeAsked, setRevokeAsked] = useState<ApiTokenRow | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [created, setCreated] = useState<{ name: string; token: string } | null>(null);
  const [copied, setCopied] = useState(false);

  async function create(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    setCreating(true);
    setError(null);
    try {
      const response = await fetch("/api/tokens", {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ name }),
      });
      if (!response.ok) {
        setError(await errorMessageOf(response));
        return;
      }
      const body = (await response.json()) as { token: string; apiToken: ApiTokenRow };
      setTokens((current) => [body.apiToken, ...current]);
      setCreated({ name: body.apiToken.name, token: body.token });
      setCopied(false);
      setName("");
    } catch {
      setError(UNREACHABLE);
    } finally {
      setCreating(false);
    }
  }

  /** Throws what went wrong, for the confirm dialog to show. */
  async function revoke(token: ApiTokenRow) {
    const response = await fetch(`/api/tokens/${encodeURIComponent(token.tokenId)}`, {
      method: "DELETE",
    }).catch(() => {
      throw new Error(UNREACHABLE);
    });
    if (!response.ok && response.status !== 404) throw new Error(await errorMessageOf(response));
    setTokens((current) => current.filter((row) => row.tokenId !== token.tokenId));
    setRevokeAsked(null);
  }

  async function copy(value: string) {
    try {
      await navigator.clipboard.writeText(value);
      setCopied(true);
    } catch {
      setCopied(false);
    }
  }

  return (
    <div className="flex flex-col gap-6">
      <form onSubmit={create} className="flex flex-col gap-3 sm:flex-row sm:items-end">
        <Input
          label="New token name"
          name="tokenName"
          placeholder="e.g. Upload script"
          value={name}
          maxLength={60}
          onChange={(event) => setName(event.target.value)}
          className="flex-1"
        />
        <Button type="submit" loading={creating} disabled={name.trim() === ""}>
          Create token
        </Button>
      </form>

      {error && <Alert tone="danger">{error}</Alert>}

      {created && (
        <Alert tone="success" title={`Token “${created.name}” created — copy it now`}>
          <p>This is the only time it is shown. Store it somewhere safe; Truss keeps only a hash.</p>
          <div className="mt-3 flex flex-col gap-2 sm:flex-row sm:items-center">
            <code
              data-testid="new-api-token"
              className="block flex-1 overflow-x-auto rounded-md bg-white px-3 py-2 font-mono text-xs text-slate-900 ring-1 ring-emerald-200"
            >
              {created.token}
            </code>
            <Button size="sm" variant="secondary" onClick={() => void copy(created.token)}>
              {copied ? "Copied" : "Copy"}
            </Button>
            <Button size="sm" variant="ghost" onClick={() => setCreated(null)}>
              Done
            </Button>
          </div>
        </Alert>
      )}

      {tokens.length === 0 ? (
        <EmptyState
          title="No API tokens"
          description="Create a token to call the Truss API from scripts: send it as Authorization: Bearer <token>."
        />
      ) : (
        <ul className="divide-y divide-slate-100 rounded-lg border border-slate-200">
          {tokens.map((token) => (
            <li
              key={token.tokenId}
              className="flex flex-col gap-2 px-4 py-3 sm:flex-row sm:items-center sm:justify-between"
            >
              <div className="min-w-0">
                <p className="truncate text-sm font-medium text-slate-900">{token.name}</p>
                <p className="text-xs text-slate-500">
                  <code className="font-mono">{token.displayPrefix}</code> · created{" "}
                  {new Date(token.createdAt).toLocaleDateString("en-GB", {
                    dateStyle: "medium",
                    timeZone: timezone,
                  })}
                </p>
              </div>
              <Button
                size="sm"
                variant="secondary"
                aria-label={`Revoke ${token.name}`}
                onClick={() => setRevokeAsked(token)}
              >
                Revoke
              </Button>
            </li>
          ))}
        </ul>
      )}
      <ConfirmDialog
        open={revokeAsked !== null}
        title={`Revoke “${revokeAsked?.name ?? ""}”?`}
        confirmLabel="Revoke token"
        failureMessage={UNREACHABLE}
        onConfirm={async () => {
          if (revokeAsked) await revoke(revokeAsked);
        }}
        onCancel={() => setRevokeAsked(null)}
      >
        Anything using it stops working immediately.
      </ConfirmDialog>
    </div>
  );
}
