import type { Metadata } from "next";
import { Button } from "@/components/ui/button";
import { Card, CardBody, CardHeader } from "@/components/ui/card";
import { PageHeader } from "@/components/ui/page-header";
import { findCreatorById } from "@/db/repos/creator-repo";
import { signOutAction, signOutEverywhereAction } from "@/server/auth/actions";
import { listApiTokens } from "@/server/auth/api-tokens/list-api-tokens";
import { requireCurrentCreator } from "@/server/auth/get-current-creator";
import { getRuntime, tableOf } from "@/server/runtime";
import { ApiTokensPanel } from "./api-tokens-panel";
import { ProfileForm } from "./profile-form";

export const metadata: Metadata = { title: "Settings" };

const TIMEZONES = ["UTC", ...Intl.supportedValuesOf("timeZone").filter((zone) => zone !== "UTC")];

export default async function SettingsPage() {
  const { creatorId } = await requireCurrentCreator();
  const runtime = getRuntime();
  const [profile, tokens] = await Promise.all([
    findCreatorById({ table: tableOf(runtime), creatorId }),
    listApiTokens({ runtime, creatorId }),
  ]);
  if (!profile) throw new Error("The signed-in creator has no profile.");

  return (
    <>
      <PageHeader title="Settings" description="Your profile, API access and sessions." />
      <div className="flex flex-col gap-6">
        <Card>
          <CardHeader
            title="Profile"
            description="How Truss addresses you, which time zone it uses and when it emails you."
          />
          <CardBody>
            <ProfileForm
              email={profile.email}
              displayName={profile.displayName}
              timezone={profile.timezone}
              emailWhenClipsReady={profile.emailWhenClipsReady}
              version={profile.version}
              timezones={TIMEZONES}
            />
          </CardBody>
        </Card>

        <Card>
          <CardHeader
            title="API tokens"
            description="Personal tokens for scripts and integrations. They act as you on every /api route."
          />
          <CardBody>
            <ApiTokensPanel initialTokens={tokens} timezone={profile.timezone} />
          </CardBody>
        </Card>

        <Card>
          <CardHeader title="Sessions" description="Sign out of this browser, or of every device at once." />
          <CardBody className="flex flex-col gap-4 sm:flex-row sm:items-center sm:justify-between">
            <p className="text-sm text-slate-600">
              Signing out everywhere ends every session, including this one. API tokens keep working until you
              revoke them.
            </p>
            <div className="flex shrink-0 gap-2">
              <form action={signOutAction}>
                <Button type="submit" variant="secondary">
                  Sign out
                </Button>
              </form>
              <form action={signOutEverywhereAction}>
                <Button type="submit" variant="danger">
                  Sign out everywhere
                </Button>
              </form>
            </div>
          </CardBody>
        </Card>
      </div>
    </>
  );
}
