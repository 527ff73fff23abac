import { describe, expect, it } from "vitest";
import { AppError } from "@/server/errors";
import {
  ACCEPTED_FORMATS_TEXT,
  checkDeclaredVideoFile,
  displayFilename,
  formatForExtension,
  isAcceptedProbeFormat,
  listAcceptedFormats,
} from "./accepted-video-formats";

const refusal = (fn: () => unknown) => {
  try {
    fn();
  } catch (error) {
    return error instanceof AppError ? error.code : "other";
  }
  return "accepted";
};

describe("checkDeclaredVideoFile", () => {
  it("accepts MP4, MOV, WebM and MKV with matching names, and returns the type to sign", () => {
    expect(checkDeclaredVideoFile({ filename: "a.mp4", contentType: "video/mp4" }).contentType).toBe(
      "video/mp4",
    );
    expect(checkDeclaredVideoFile({ filename: "a.MOV", contentType: "video/quicktime" }).format.label).toBe(
      "MOV",
    );
    expect(
      checkDeclaredVideoFile({ filename: "a.webm", contentType: "Video/WebM; codecs=vp9" }).contentType,
    ).toBe("video/webm");
    expect(checkDeclaredVideoFile({ filename: "a.mkv", contentType: "video/matroska" }).contentType).toBe(
      "video/x-matroska",
    );
  });

  it("accepts stream captures (MPEG-TS, camcorders' .mts/.m2ts) and FLV, Windows' DLNA type included", () => {
    expect(checkDeclaredVideoFile({ filename: "stream.ts", contentType: "video/mp2t" }).format.label).toBe(
      "MPEG-TS",
    );
    expect(
      checkDeclaredVideoFile({ filename: "00012.MTS", contentType: "video/vnd.dlna.mpeg-tts" }).contentType,
    ).toBe("video/mp2t");
    expect(checkDeclaredVideoFile({ filename: "old.flv", contentType: "video/x-flv" }).format.label).toBe(
      "FLV",
    );
    expect(refusal(() => checkDeclaredVideoFile({ filename: "a.ts", contentType: "video/mp4" }))).toBe(
      "unsupported_media_type",
    );
  });

  it("accepts a name and type of the same container family", () => {
    expect(checkDeclaredVideoFile({ filename: "phone.mov", contentType: "video/mp4" }).format.label).toBe(
      "MP4",
    );
  });

  it("refuses other types, other extensions, and mismatched families with 415", () => {
    expect(refusal(() => checkDeclaredVideoFile({ filename: "a.mp4", contentType: "image/png" }))).toBe(
      "unsupported_media_type",
    );
    expect(refusal(() => checkDeclaredVideoFile({ filename: "a.avi", contentType: "video/mp4" }))).toBe(
      "unsupported_media_type",
    );
    expect(refusal(() => checkDeclaredVideoFile({ filename: "mp4", contentType: "video/mp4" }))).toBe(
      "unsupported_media_type",
    );
    expect(refusal(() => checkDeclaredVideoFile({ filename: "a.webm", contentType: "video/mp4" }))).toBe(
      "unsupported_media_type",
    );
    expect(refusal(() => checkDeclaredVideoFile({ filename: "a.mp4", contentType: "" }))).toBe(
      "unsupported_media_type",
    );
  });
});

describe("helpers", () => {
  it("maps extensions and ffprobe formats", () => {
    expect(formatForExtension("MKV")?.contentTypes[0]).toBe("video/x-matroska");
    expect(formatForExtension("txt")).toBeUndefined();
    expect(isAcceptedProbeFormat("matroska,webm")).toBe(true);
    expect(isAcceptedProbeFormat("mov,mp4,m4a,3gp,3g2,mj2")).toBe(true);
    expect(isAcceptedProbeFormat("mpegts")).toBe(true);
    expect(isAcceptedProbeFormat("flv")).toBe(true);
    expect(isAcceptedProbeFormat("avi")).toBe(false);
    expect(isAcceptedProbeFormat("image2")).toBe(false);
  });

  it("names the accepted formats in a sentence", () => {
    expect(listAcceptedFormats("or")).toBe("MP4, MOV, WebM, MKV, MPEG-TS or FLV");
    expect(ACCEPTED_FORMATS_TEXT).toBe("MP4, MOV, WebM, MKV, MPEG-TS and FLV");
  });

  it("keeps only the base name of a file for display", () => {
    expect(displayFilename("C:\\fakepath\\My clip.mp4")).toBe("My clip.mp4");
    expect(displayFilename("../../etc/passwd")).toBe("passwd");
    expect(displayFilename("a\u0000b.mp4")).toBe("ab.mp4");
    expect(displayFilename("")).toBe("video");
  });

  it("shortens a long name before its extension, so its type is still read from it", () => {
    const long = `${"x".repeat(300)}.mp4`;
    const shown = displayFilename(long);
    expect(shown).toBe(`${"x".repeat(196)}.mp4`);
    expect(refusal(() => checkDeclaredVideoFile({ filename: shown, contentType: "video/mp4" }))).toBe(
      "accepted",
    );
    // Whole characters only: an emoji is not cut in half.
    expect([...displayFilename(`${"🎬".repeat(250)}.mov`)]).toHaveLength(200);
    expect(displayFilename(`${"🎬".repeat(250)}.mov`).isWellFormed()).toBe(true);
  });

  it("drops what would show the name in another order than it has, and lone surrogates", () => {
    expect(displayFilename("clip\u202Ekcod.mp4")).toBe("clipkcod.mp4");
    expect(displayFilename("a\u2066b\u2069.mp4")).toBe("ab.mp4");
    expect(displayFilename("a\uD800b.mp4").isWellFormed()).toBe(true);
  });
});
