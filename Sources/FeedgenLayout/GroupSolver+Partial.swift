/// What a partial last group needs to keep a full group's positions (layout-semantics §2.6): the
/// subitems a full instance would still hold.
extension GroupSolver {
    /// The subitems a full instance of a `subitems` group holds after the `k` placed so far
    /// (`used` px of `innerMain`), when the items ran out first: the cyclic repetition continued
    /// while the next fits, each item at its own main extent (an estimate for an estimated one)
    /// with its fixed edge spacing. Only where the CSS can write a full instance out
    /// (`LayoutCSS.fullInstance`): every subitem an item whose main size is absolute or a
    /// fraction along the axis; otherwise none (the instance shares its own leftover).
    static func missingSubitems(
        _ list: [LayoutSubitem], from k: Int, used: Double, gap: Double, innerMain: Double, axis: Axis,
        provisional: Size
    ) -> (count: Int, extent: Double, flexibleEdges: Int) {
        var out = (count: 0, extent: 0.0, flexibleEdges: 0)
        for sub in list {
            guard case .item(let item) = sub else { return out }
            switch item.size.dimension(axis) {
            case .absolute: break
            case .fractionalWidth where axis == .horizontal, .fractionalHeight where axis == .vertical: break
            default: return out
            }
        }
        var used = used
        var k = k
        // A group holds at most as many subitems as 1 px slots; the bound keeps zero-width items finite.
        while out.count < 10_000, case .item(let item) = list[k % list.count] {
            let (lead, trail) = item.edgeSpacing?.edges(axis) ?? (nil, nil)
            let main = item.size.dimension(axis).resolve(in: provisional) + (lead?.minimum ?? 0) + (trail?.minimum ?? 0)
            guard used + gap + main <= innerMain + fitTolerance else { break }
            used += gap + main
            out.count += 1
            out.extent += main
            out.flexibleEdges += (lead?.isFlexible == true ? 1 : 0) + (trail?.isFlexible == true ? 1 : 0)
            k += 1
        }
        return out
    }
}
