import { ButtonLink } from "@/components/ui/button";
import { PageHeader } from "@/components/ui/page-header";

/**
 * A video that is not there for this creator: deleted, mistyped, or someone else's. The three
 * read the same, so a link says nothing about other creators' videos.
 */
export default function VideoNotFound() {
  return (
    <>
      <PageHeader
        title="This video is not here"
        description="It may have been deleted, or the link is not to one of your videos."
      />
      <div className="flex flex-wrap gap-3">
        <ButtonLink href="/videos">Your videos</ButtonLink>
        <ButtonLink href="/dashboard" variant="secondary">
          Dashboard
        </ButtonLink>
      </div>
    </>
  );
}
