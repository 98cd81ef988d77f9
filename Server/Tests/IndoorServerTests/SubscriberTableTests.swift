import Synchronization
import Testing

@testable import IndoorServer

/// One table of live feeds, as each venue's stream subscribers and the hub's observers use it.
@Suite struct SubscriberTableTests {
    @Test func everyFeedGetsWhatIsPublishedAfterItSubscribedInOrder() async {
        let table = SubscriberTable<Int>()
        table.publish([0])
        let first = table.subscribe(bufferingPolicy: .unbounded)
        table.publish([1, 2])
        let second = table.subscribe(bufferingPolicy: .unbounded)
        table.publish(3)
        #expect(table.count == 2)
        table.finishAll()
        #expect(table.count == 0)
        #expect(await Array(first) == [1, 2, 3])
        #expect(await Array(second) == [3])
    }

    @Test func nothingIsPublishedForNoElements() async {
        let table = SubscriberTable<Int>()
        let feed = table.subscribe(bufferingPolicy: .unbounded)
        table.publish([])
        table.finishAll()
        #expect(await Array(feed).isEmpty)
    }

    @Test func aFeedKeepsWhatItsPolicySays() async {
        let table = SubscriberTable<Int>()
        let oldest = table.subscribe(bufferingPolicy: .bufferingOldest(2))
        let newest = table.subscribe(bufferingPolicy: .bufferingNewest(2))
        table.publish([1, 2, 3, 4])
        table.finishAll()
        #expect(await Array(oldest) == [1, 2])
        #expect(await Array(newest) == [3, 4])
    }

    @Test func aReaderThatStopsLeavesTheTable() async {
        let table = SubscriberTable<Int>()
        let kept = table.subscribe(bufferingPolicy: .unbounded)
        do {
            let dropped = table.subscribe(bufferingPolicy: .unbounded)
            #expect(table.count == 2)
            _ = dropped
        }
        #expect(table.count == 1)
        table.publish(7)
        table.finishAll()
        #expect(await Array(kept) == [7])
    }

    @Test func aCancelledReaderLeavesTheTable() async {
        let table = SubscriberTable<Int>()
        let feed = table.subscribe(bufferingPolicy: .unbounded)
        let reader = Task { await Array(feed) }
        while table.count != 1 { await Task.yield() }
        reader.cancel()
        _ = await reader.value
        #expect(table.count == 0)
    }

    @Test func anOwnerIsToldOnceAFeedHasEndedAndLeftTheTable() async {
        let table = SubscriberTable<Int>()
        let ended = Mutex<[Int]>([])
        let counts = Mutex<[Int]>([])
        do {
            let dropped = table.subscribe(bufferingPolicy: .unbounded) {
                ended.withLock { $0.append(1) }
                counts.withLock { $0.append(table.count) }
            }
            _ = dropped
        }
        #expect(ended.withLock { $0 } == [1])
        let kept = table.subscribe(bufferingPolicy: .unbounded) {
            ended.withLock { $0.append(2) }
            counts.withLock { $0.append(table.count) }
        }
        table.finishAll()
        #expect(await Array(kept).isEmpty)
        #expect(ended.withLock { $0 } == [1, 2])
        #expect(counts.withLock { $0 } == [0, 0])
    }

    @Test func aFeedSubscribedAfterTheEndIsFedAsUsual() async {
        let table = SubscriberTable<Int>()
        table.finishAll()
        let feed = table.subscribe(bufferingPolicy: .unbounded)
        table.publish(1)
        table.finishAll()
        #expect(await Array(feed) == [1])
    }
}

extension Array {
    /// Every element of `stream` until it ends.
    init(_ stream: AsyncStream<Element>) async {
        var all: [Element] = []
        for await element in stream { all.append(element) }
        self = all
    }
}
