import Foundation
import Synchronization
import Testing

@testable import FeedgenMustache

@Suite("Concurrency")
struct ConcurrencyTests {
    @Test func oneTemplateRendersOnManyThreads() throws {
        let template = try MustacheTemplate(source: """
            {{<layout}}
            {{$body}}
            {{#cards}}
              {{>card}}
            {{/cards}}
            {{/body}}
            {{/layout}}
            """, name: "page")
        let partials = try DictionaryPartials([
            "layout": "<main>\n  {{$body}}\n  {{/body}}\n</main>\n",
            "card": "<div id=\"c{{id}}\">\n  {{title}} {{#shout}}x{{/shout}}\n</div>\n",
        ])
        let calls = Mutex(0)
        let shout = MustacheLambda.section { text in
            calls.withLock { $0 += 1 }
            return text.uppercased()
        }
        func data(_ worker: Int) -> MustacheValue {
            .object(MustacheObject([
                ("shout", .lambda(shout)),
                ("cards", .array((0..<20).map { card in
                    ["id": .int(worker * 100 + card), "title": .string("T<\(worker)>")]
                })),
            ]))
        }
        func expected(_ worker: Int) -> String {
            var s = "<main>\n"
            for card in 0..<20 {
                s += "    <div id=\"c\(worker * 100 + card)\">\n      T&lt;\(worker)&gt; X\n    </div>\n"
            }
            return s + "</main>\n"
        }

        let workers = 8, rounds = 25
        let inputs = (0..<workers).map(data)
        let outputs = (0..<workers).map(expected)
        let failures = Mutex<[String]>([])
        DispatchQueue.concurrentPerform(iterations: workers) { worker in
            let input = inputs[worker]
            let want = outputs[worker]
            for _ in 0..<rounds {
                do {
                    let output = try template.render(input, partials: partials)
                    if output != want { failures.withLock { $0.append("worker \(worker): \(output)") } }
                } catch {
                    failures.withLock { $0.append("worker \(worker): \(error)") }
                }
            }
        }
        #expect(failures.withLock { $0 }.isEmpty)
        #expect(calls.withLock { $0 } == workers * rounds * 20)
    }
}
