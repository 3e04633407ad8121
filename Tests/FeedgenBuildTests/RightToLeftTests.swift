/// Which languages a page, section or card is set right to left in (`dir="rtl"`).
import Testing

@testable import FeedgenEmit

@Suite struct RightToLeftTests {
    @Test func languagesAndScriptsThatAreWrittenRightToLeft() {
        for lang in ["ar", "AR", "he", "iw", "fa", "ur", "ps", "sd", "yi", "dv", "ug", "ckb", "syr", "nqo", "ar-EG", "fa_IR", "az-Arab", "pa-Arab-PK"] {
            #expect(SiteRenderer.isRightToLeft(lang), "\(lang)")
        }
        for lang in [nil, "", "en", "EN", "ja", "zh-Hant", "az-Latn", "ar-Latn", "e1", "a@", "arx", "english", "-", "é"] {
            #expect(!SiteRenderer.isRightToLeft(lang), "\(lang ?? "nil")")
        }
    }
}
