extension JSONValue {
    /// The first of `keys` present and not `null`: in-house tools name the same field several ways (`statusCode`,
    /// `status`, `code`), and keys match ignoring case.
    func field(_ keys: String...) -> JSONValue? {
        for key in keys {
            if let found = self[key], found != .null { return found }
        }
        return nil
    }
}
