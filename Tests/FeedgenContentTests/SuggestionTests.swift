/// `Suggestion` ("did you mean"): the closest candidate within the typo limit, on ASCII and
/// non-ASCII words alike.
import FeedgenDiagnostics
import Testing

@Suite struct SuggestionTests {
    @Test func closestASCIIIgnoresCaseAndLength() {
        #expect(Suggestion.closest(to: "Tagz", in: ["tags", "title", "tag-list"]) == "tags")
        // Transposition is one edit.
        #expect(Suggestion.closest(to: "dsecription", in: ["description", "date"]) == "description")
        // Far longer or shorter candidates are never suggested.
        #expect(Suggestion.closest(to: "id", in: ["identifier", "x-y-z"]) == nil)
        // Equal distances: the smaller name.
        #expect(Suggestion.closest(to: "cat", in: ["hat", "bat"]) == "bat")
    }

    @Test func closestNonASCIIWordsAndCandidates() {
        // Equal distances: the smaller name ("u" sorts before "ü").
        #expect(Suggestion.closest(to: "überblick", in: ["überblik", "uberblick"]) == "uberblick")
        #expect(Suggestion.closest(to: "概要", in: ["概要-2", "概要2", "はじめに"]) == "概要2")
        #expect(Suggestion.closest(to: "resume", in: ["résumé", "resumes"]) == "resumes")
        #expect(Suggestion.didYouMean("Resum", in: ["résumé"]) == " (did you mean 'résumé'?)")
    }

    @Test func distanceCountsCharacters() {
        #expect(Suggestion.distance(Array("kitten"), Array("sitting")) == 3)
        #expect(Suggestion.distance(Array("ca"), Array("ac")) == 1)
        #expect(Suggestion.distance(Array(""), Array("abc")) == 3)
    }
}
