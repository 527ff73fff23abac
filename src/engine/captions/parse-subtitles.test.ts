import { describe, expect, it } from "vitest";
import { parseSubtitles, SubtitleParseError } from "./parse-subtitles";

describe("parseSubtitles", () => {
  it("reads SRT cues with numbers, multi-line text and CRLF line ends", () => {
    const srt = [
      "1",
      "00:00:01,000 --> 00:00:02,500",
      "Hello there",
      "",
      "2",
      "00:00:03,250 --> 00:01:04,000",
      "second line",
      "continues here",
      "",
    ].join("\r\n");
    expect(parseSubtitles(srt)).toEqual([
      { startSeconds: 1, endSeconds: 2.5, text: "Hello there" },
      { startSeconds: 3.25, endSeconds: 64, text: "second line continues here" },
    ]);
  });

  it("reads WebVTT with a BOM, header, identifiers, settings, NOTE/STYLE blocks and markup", () => {
    const vtt = [
      "\uFEFFWEBVTT - talk",
      "Kind: captions",
      "",
      "NOTE this is a comment",
      "that spans two lines",
      "",
      "STYLE",
      "::cue { color: yellow }",
      "",
      "intro-cue",
      "00:05.500 --> 00:07.000 align:start position:10%",
      "<v Sam>Welcome <i>back</i></v> &amp; hi",
      "",
      "01:00:00.000 --> 01:00:01.200",
      "<c.yellow>Karaoke</c> <00:00:00.600>style",
    ].join("\n");
    expect(parseSubtitles(vtt)).toEqual([
      { startSeconds: 5.5, endSeconds: 7, text: "Welcome back & hi" },
      { startSeconds: 3600, endSeconds: 3601.2, text: "Karaoke style" },
    ]);
  });

  it("strips SSA override tags that some SRT files carry", () => {
    const srt = "1\n00:00:01,000 --> 00:00:02,000\n{\\an8}Top text\n";
    expect(parseSubtitles(srt)).toEqual([{ startSeconds: 1, endSeconds: 2, text: "Top text" }]);
  });

  it("skips malformed cues and keeps the good ones, sorted by start", () => {
    const srt = [
      "1",
      "00:00:09,000 --> 00:00:10,000",
      "late cue first",
      "",
      "2",
      "00:00:xx,000 --> 00:00:04,000",
      "bad timestamp",
      "",
      "3",
      "00:00:05,000 --> 00:00:04,000",
      "ends before it starts",
      "",
      "4",
      "00:00:01,000 --> 00:00:02,000",
      "",
      "5",
      "00:00:02,000 --> 00:00:03,000",
      "<b></b>",
      "",
      "6",
      "00:00:75,000 --> 00:00:76,000",
      "seconds out of range",
      "",
      "7",
      "00:00:03,000 --> 00:00:04,000",
      "good",
    ].join("\n");
    expect(parseSubtitles(srt)).toEqual([
      { startSeconds: 3, endSeconds: 4, text: "good" },
      { startSeconds: 9, endSeconds: 10, text: "late cue first" },
    ]);
  });

  it("splits cues when a file forgot the blank line between them", () => {
    const srt = [
      "1",
      "00:00:01,000 --> 00:00:02,000",
      "first",
      "2",
      "00:00:02,000 --> 00:00:03,000",
      "second",
    ].join("\n");
    expect(parseSubtitles(srt)).toEqual([
      { startSeconds: 1, endSeconds: 2, text: "first" },
      { startSeconds: 2, endSeconds: 3, text: "second" },
    ]);
  });

  it("rejects a file with no timing lines, and one where every cue is malformed", () => {
    expect(() => parseSubtitles("just some text\nwith no cues")).toThrow(SubtitleParseError);
    expect(() => parseSubtitles("")).toThrow(/not an SRT or WebVTT/);
    expect(() => parseSubtitles("1\n00:00:02,000 --> 00:00:01,000\nbackwards\n")).toThrow(/no usable cue/);
  });
});
