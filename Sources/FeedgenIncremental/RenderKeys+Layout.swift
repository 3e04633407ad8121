/// A section layout in a feed page's key (``RenderKeys/feedKey(_:site:)``): every stored field of
/// the layout's tree, hashed (the tests check the lists of fields).
import FeedgenLayout
import FeedgenStorage

extension RenderKeys {
    static func combine(_ layout: AdaptiveSection, into h: inout StableHasher) {
        combine(layout.base, into: &h)
        h.combine(layout.rules.count)
        for rule in layout.rules {
            h.combine(rule.minWidth.bitPattern)
            combine(rule.section, into: &h)
        }
    }

    static func combine(_ section: LayoutSection, into h: inout StableHasher) {
        combine(section.group, into: &h)
        combine(section.contentInsets, into: &h)
        h.combine(section.interGroupSpacing.bitPattern)
        h.combine(section.orthogonalScrollingBehavior.rawValue)
        h.combine(section.contentInsetsReference.rawValue)
        for supplementary in [section.header, section.footer] {
            h.combine(supplementary != nil)
            if let supplementary {
                combine(supplementary.height, into: &h)
                h.combine(supplementary.pinToVisibleBounds)
            }
        }
        h.combine(section.background)
    }

    static func combine(_ group: LayoutGroup, into h: inout StableHasher) {
        h.combine(group.direction.rawValue)
        combine(group.size, into: &h)
        switch group.content {
        case .count(let count, let subitem):
            h.combine("count")
            h.combine(count)
            combine(subitem, into: &h)
        case .subitems(let list):
            h.combine("subitems")
            h.combine(list.count)
            for subitem in list { combine(subitem, into: &h) }
        }
        combine(group.interItemSpacing, into: &h)
        combine(group.contentInsets, into: &h)
    }

    static func combine(_ subitem: LayoutSubitem, into h: inout StableHasher) {
        switch subitem {
        case .item(let item):
            h.combine("item")
            combine(item.size, into: &h)
            combine(item.contentInsets, into: &h)
            h.combine(item.edgeSpacing != nil)
            if let spacing = item.edgeSpacing {
                for edge in [spacing.leading, spacing.top, spacing.trailing, spacing.bottom] { combine(edge, into: &h) }
            }
        case .group(let group):
            h.combine("group")
            combine(group, into: &h)
        }
    }

    static func combine(_ size: LayoutSize, into h: inout StableHasher) {
        combine(size.width, into: &h)
        combine(size.height, into: &h)
    }

    static func combine(_ dimension: LayoutDimension, into h: inout StableHasher) {
        let (kind, value): (Int, Double) =
            switch dimension {
            case .fractionalWidth(let v): (1, v)
            case .fractionalHeight(let v): (2, v)
            case .absolute(let v): (3, v)
            case .estimated(let v): (4, v)
            case .uniformAcrossSiblings(let v): (5, v)
            }
        h.combine(kind)
        h.combine(value.bitPattern)
    }

    static func combine(_ spacing: LayoutSpacing?, into h: inout StableHasher) {
        switch spacing {
        case nil: h.combine(0)
        case .fixed(let v)?:
            h.combine(1)
            h.combine(v.bitPattern)
        case .flexible(let v)?:
            h.combine(2)
            h.combine(v.bitPattern)
        }
    }

    static func combine(_ insets: DirectionalEdgeInsets, into h: inout StableHasher) {
        for v in [insets.top, insets.leading, insets.bottom, insets.trailing] { h.combine(v.bitPattern) }
    }
}
